/**
 * Precision of the confined view for toolchains (issue 34): a build or test command runs confined in
 * write mode with its caches named in `[shell.sandbox] write_paths`, and the cache outlives the
 * command (the rest of the home is an empty tmpfs whose writes vanish). `go test` with Debian's
 * golang-go, `cargo test` and `pytest` with whatever is installed (rustup's and pyenv's toolchains,
 * their folders in `read_paths`, or Debian's cargo and python3-pytest, which setup.sh installs when
 * there is none); `npm test` is in escape.test.ts.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findShell, runShellCommand } from '../process/shell.js'
import { detectSandboxBackend } from './detect.js'
import { Sandbox } from './sandbox.js'

const installed = (name: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}
const bwrapInstalled = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'].some((path) =>
  existsSync(path),
)
// setup.sh installs them, so CI always runs these.
const run = (bwrapInstalled && installed('go')) || process.env.CI !== undefined
const runCargo = (bwrapInstalled && installed('cargo')) || process.env.CI !== undefined
const runPytest = (bwrapInstalled && installed('pytest')) || process.env.CI !== undefined

/** Where a version manager keeps its toolchains (outside the test's empty home), when it is installed. */
function managerHome(variable: string, folder: string): string | undefined {
  const path = process.env[variable] ?? join(homedir(), folder)
  return existsSync(path) ? path : undefined
}
const rustupHome = managerHome('RUSTUP_HOME', '.rustup')
const pyenvRoot = managerHome('PYENV_ROOT', '.pyenv')

let base: string
let home: string
let env: Record<string, string>
let sandbox: Sandbox

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'ze-toolchains-')))
  home = join(base, 'home')
  // The caches the docs' go row names; they must exist to be bound.
  for (const dir of [join(home, '.cache', 'go-build'), join(home, 'go', 'pkg', 'mod')])
    mkdirSync(dir, { recursive: true })
  env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home }
  if (!run) return
  const backend = await detectSandboxBackend()
  if (backend.kind === 'none') throw new Error(`bwrap is installed but cannot start: ${backend.reason}`)
  sandbox = await Sandbox.create({
    backend,
    settings: { enabled: true, allowNetwork: false, writePaths: ['~/.cache/go-build', '~/go/pkg/mod'] },
    home,
    env,
  })
})

afterAll(async () => {
  await sandbox?.dispose()
  // Go writes its module cache read-only; make it removable first.
  if (base) execFileSync('chmod', ['-R', 'u+w', base])
  rmSync(base, { recursive: true, force: true })
})

describe.skipIf(!run)('toolchains run confined with their caches in write_paths', () => {
  it('go test: passes in write mode, its build cache (~/.cache/go-build) kept for the next run', async () => {
    const module = join(base, 'gomod')
    mkdirSync(module)
    writeFileSync(join(module, 'go.mod'), 'module example.com/calc\n\ngo 1.19\n')
    writeFileSync(join(module, 'calc.go'), 'package calc\n\nfunc Add(a, b int) int { return a + b }\n')
    writeFileSync(
      join(module, 'calc_test.go'),
      'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal("add")\n\t}\n}\n',
    )
    const prepared = await sandbox.prepare({ root: module, additionalDirectories: [], granted: 'write' })
    if (!prepared) throw new Error('expected a confined run')
    try {
      const result = await runShellCommand('go test ./... && go env GOCACHE GOMODCACHE', {
        cwd: module,
        env,
        shellPath: findShell(env.PATH),
        wrap: prepared.wrap,
        timeoutMs: 110_000,
      })
      expect({ exitCode: result.exitCode, output: result.output }).toMatchObject({ exitCode: 0 })
      expect(result.output).toMatch(/^ok\s+example\.com\/calc/m)
      expect(result.output).toContain(join(home, '.cache', 'go-build'))
      expect(result.output).toContain(join(home, 'go', 'pkg', 'mod'))
    } finally {
      await prepared.release()
    }
    expect(readdirSync(join(home, '.cache', 'go-build')).length).toBeGreaterThan(0)
  })
})

/**
 * A sandbox with the docs' row for a toolchain: its version manager's folder (when there is one)
 * in `read_paths` and the variable that names it, its caches in `write_paths`.
 */
async function toolchainSandbox(
  manager: { variable: string; path: string | undefined },
  writePaths: string[],
): Promise<{ box: Sandbox; env: Record<string, string> }> {
  const toolEnv = { ...env, ...(manager.path ? { [manager.variable]: manager.path } : {}) }
  for (const path of writePaths) mkdirSync(join(home, path.slice(2)), { recursive: true })
  const backend = await detectSandboxBackend()
  const box = await Sandbox.create({
    backend,
    settings: {
      enabled: true,
      allowNetwork: false,
      readPaths: manager.path ? [manager.path] : [],
      writePaths,
    },
    home,
    env: toolEnv,
  })
  return { box, env: toolEnv }
}

/** Runs `command` write-confined in `root` through `box`. */
async function confinedIn(box: Sandbox, toolEnv: Record<string, string>, root: string, command: string) {
  const prepared = await box.prepare({ root, additionalDirectories: [], granted: 'write' })
  if (!prepared) throw new Error('expected a confined run')
  try {
    return await runShellCommand(command, {
      cwd: root,
      env: toolEnv,
      shellPath: findShell(toolEnv.PATH),
      wrap: prepared.wrap,
      timeoutMs: 110_000,
    })
  } finally {
    await prepared.release()
  }
}

describe.skipIf(!runCargo)('cargo test runs confined (issue 34)', () => {
  it('passes in write mode with ~/.rustup read-only and the cargo caches writable; target/ lands in the project', async () => {
    const crate = join(base, 'crate')
    mkdirSync(join(crate, 'src'), { recursive: true })
    writeFileSync(
      join(crate, 'Cargo.toml'),
      '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
    )
    writeFileSync(
      join(crate, 'src', 'lib.rs'),
      'pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(super::add(2, 3), 5); }\n}\n',
    )
    const { box, env: toolEnv } = await toolchainSandbox({ variable: 'RUSTUP_HOME', path: rustupHome }, [
      '~/.cargo/registry',
      '~/.cargo/git',
    ])
    try {
      const result = await confinedIn(box, toolEnv, crate, 'cargo test --offline 2>&1')
      expect({ exitCode: result.exitCode, output: result.output }).toMatchObject({ exitCode: 0 })
      expect(result.output).toMatch(/test result: ok\. 1 passed/)
    } finally {
      await box.dispose()
    }
    expect(existsSync(join(crate, 'target'))).toBe(true)
  })
})

describe.skipIf(!runPytest)('pytest runs confined (issue 34)', () => {
  it('passes in write mode with ~/.pyenv read-only and ~/.cache/pip writable; its cache lands in the project', async () => {
    const pkg = join(base, 'pyproj')
    mkdirSync(pkg)
    writeFileSync(join(pkg, 'calc.py'), 'def add(a, b):\n    return a + b\n')
    writeFileSync(
      join(pkg, 'test_calc.py'),
      'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n',
    )
    const { box, env: toolEnv } = await toolchainSandbox({ variable: 'PYENV_ROOT', path: pyenvRoot }, [
      '~/.cache/pip',
    ])
    try {
      const result = await confinedIn(box, toolEnv, pkg, 'pytest -q 2>&1')
      expect({ exitCode: result.exitCode, output: result.output }).toMatchObject({ exitCode: 0 })
      expect(result.output).toMatch(/1 passed/)
    } finally {
      await box.dispose()
    }
    expect(existsSync(join(pkg, '.pytest_cache'))).toBe(true)
  })
})
