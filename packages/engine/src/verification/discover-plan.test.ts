import { describe, expect, it } from 'vitest'
import { planChecks } from './discover-plan.js'

const plan = (entries: string[], files: Record<string, string> = {}) =>
  planChecks({ entries: new Set([...entries, ...Object.keys(files)]), files }, '/p').map(
    ({ id, kind, command }) => [id, kind, command],
  )

describe('check discovery (spec 000 "Verification": never executes anything)', () => {
  it('reads package scripts with the package manager the lockfile or packageManager names', () => {
    const manifest = JSON.stringify({
      scripts: { test: 'vitest run', typecheck: 'tsc --noEmit', build: 'tsup', lint: 'biome check' },
    })
    expect(plan(['package-lock.json'], { 'package.json': manifest })).toEqual([
      ['test', 'test', 'npm test'],
      ['typecheck', 'typecheck', 'npm run typecheck'],
      ['build', 'build', 'npm run build'],
      ['lint', 'lint', 'npm run lint'],
    ])
    expect(plan(['pnpm-lock.yaml'], { 'package.json': manifest })[0]).toEqual([
      'test',
      'test',
      'pnpm run test',
    ])
    expect(plan(['yarn.lock'], { 'package.json': manifest })[0]?.[2]).toBe('yarn run test')
    expect(plan(['bun.lock'], { 'package.json': manifest })[0]?.[2]).toBe('bun run test')
    const declared = JSON.stringify({ packageManager: 'pnpm@10.1.0', scripts: { 'type-check': 'tsc' } })
    expect(plan([], { 'package.json': declared })).toEqual([
      ['typecheck', 'typecheck', 'pnpm run type-check'],
    ])
  })

  it("skips npm init's placeholder test and a manifest that does not parse", () => {
    const placeholder = JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } })
    expect(plan([], { 'package.json': placeholder })).toEqual([])
    expect(plan([], { 'package.json': '{ not json' })).toEqual([])
  })

  it('knows Cargo, Go, Python, Deno, Gradle, Maven, .NET and CMake by their root files', () => {
    expect(plan(['Cargo.toml']).map((check) => check[2])).toEqual([
      'cargo test',
      'cargo check --all-targets',
      'cargo build',
      'cargo clippy',
    ])
    expect(plan(['go.mod'])[0]).toEqual(['test', 'test', 'go test ./...'])
    expect(
      plan([], { 'pyproject.toml': '[tool.pytest.ini_options]\n[tool.mypy]\nstrict = true\n[tool.ruff]\n' }),
    ).toEqual([
      ['test', 'test', 'python -m pytest'],
      ['typecheck', 'typecheck', 'mypy .'],
      ['lint', 'lint', 'ruff check .'],
    ])
    expect(plan(['tox.ini', 'pytest.ini'])).toEqual([
      ['test', 'test', 'tox'],
      ['pytest-test', 'test', 'python -m pytest'],
    ])
    expect(plan(['setup.py', 'tests', 'pyrightconfig.json'])).toEqual([
      ['test', 'test', 'python -m pytest'],
      ['typecheck', 'typecheck', 'pyright'],
    ])
    expect(plan(['deno.json'])[0]?.[2]).toBe('deno test')
    expect(plan(['build.gradle.kts', 'gradlew'])[0]?.[2]).toBe('./gradlew test')
    expect(plan(['pom.xml'])[0]?.[2]).toBe('mvn test')
    expect(plan(['App.sln'])[0]?.[2]).toBe('dotnet test')
    expect(plan(['CMakeLists.txt'])).toEqual([
      ['build', 'build', 'cmake -S . -B build && cmake --build build'],
      ['test', 'test', 'ctest --test-dir build'],
    ])
  })

  it('reads Makefile and justfile targets; a later source of a taken name is prefixed by its tool', () => {
    const makefile =
      'CC := gcc\nall: build\nbuild:\n\tgcc x.c\ncheck:\n\t./run-tests\nlint: build\n\tclang-tidy\n'
    expect(plan([], { Makefile: makefile })).toEqual([
      ['test', 'test', 'make check'],
      ['build', 'build', 'make build'],
      ['lint', 'lint', 'make lint'],
    ])
    const manifest = JSON.stringify({ scripts: { test: 'jest' } })
    expect(
      plan([], { 'package.json': manifest, justfile: 'test filter="":\n  cargo test {{filter}}\n' }),
    ).toEqual([
      ['test', 'test', 'npm test'],
      ['just-test', 'test', 'just test'],
    ])
  })

  it('finds nothing in an empty folder', () => {
    expect(plan([])).toEqual([])
  })
})
