import type { CheckInfo } from '@z-engine/tools'

/** A check kind (spec 000 "Verification"). */
export type CheckKind = CheckInfo['kind']

/**
 * What discovery looked at in the project root: the entry names and the text of the few files whose
 * content matters (package.json, pyproject.toml, Makefile, justfile, deno.json). Gathered by
 * `discover.ts`; nothing here reads a file or runs anything.
 */
export interface ProjectFacts {
  /** Names of the root's entries (files and folders). */
  entries: ReadonlySet<string>
  /** Text of root files, by name, for those `FILES_READ` lists that exist. */
  files: Readonly<Record<string, string>>
}

/** The root files whose text discovery needs. */
export const FILES_READ = [
  'package.json',
  'pyproject.toml',
  'Makefile',
  'makefile',
  'GNUmakefile',
  'justfile',
  'Justfile',
  '.justfile',
  'deno.json',
  'deno.jsonc',
] as const

/** A discovered check before ids are made unique. */
interface Found {
  name: string
  kind: CheckKind
  command: string
  source: string
  /** The tool, prefixed to the name when another source already took it (`make-test`). */
  tool: string
}

/**
 * Plans the checks a project offers, from its root files alone (spec 000: discovery never executes
 * anything). Order: package scripts, Cargo, Go, Python, Deno, Gradle, Maven, .NET, CMake, Make, just.
 * The first check of a name keeps it (`test`); later ones are prefixed by their tool (`make-test`).
 * Every discovered check runs in `root`.
 */
export function planChecks(facts: ProjectFacts, root: string): Array<CheckInfo & { cwd: string }> {
  const found: Found[] = [
    ...packageScripts(facts),
    ...cargo(facts),
    ...go(facts),
    ...python(facts),
    ...deno(facts),
    ...gradle(facts),
    ...maven(facts),
    ...dotnet(facts),
    ...cmake(facts),
    ...targets(facts, 'make'),
    ...targets(facts, 'just'),
  ]
  const taken = new Set<string>()
  const checks: Array<CheckInfo & { cwd: string }> = []
  for (const check of found) {
    let id = check.name
    if (taken.has(id)) id = `${check.tool}-${check.name}`
    if (taken.has(id)) continue
    taken.add(id)
    checks.push({ id, kind: check.kind, command: check.command, source: check.source, cwd: root })
  }
  return checks
}

/** Script names by kind; the first present name of each kind wins. */
const SCRIPT_NAMES: ReadonlyArray<{ kind: CheckKind; names: readonly string[] }> = [
  { kind: 'test', names: ['test'] },
  { kind: 'typecheck', names: ['typecheck', 'type-check', 'check-types', 'tsc', 'types'] },
  { kind: 'build', names: ['build'] },
  { kind: 'lint', names: ['lint'] },
]

// What `npm init` writes: a test script that only fails.
const PLACEHOLDER_TEST = /no test specified/

function packageScripts(facts: ProjectFacts): Found[] {
  const text = facts.files['package.json']
  if (text === undefined) return []
  let manifest: unknown
  try {
    manifest = JSON.parse(text)
  } catch {
    return []
  }
  if (typeof manifest !== 'object' || manifest === null) return []
  const { scripts, packageManager } = manifest as { scripts?: unknown; packageManager?: unknown }
  if (typeof scripts !== 'object' || scripts === null) return []
  const manager = packageManagerOf(facts, packageManager)
  const found: Found[] = []
  for (const { kind, names } of SCRIPT_NAMES) {
    const name = names.find(
      (candidate) => typeof (scripts as Record<string, unknown>)[candidate] === 'string',
    )
    if (name === undefined) continue
    if (kind === 'test' && PLACEHOLDER_TEST.test(String((scripts as Record<string, unknown>)[name]))) continue
    found.push({
      name: kind,
      kind,
      command: runScript(manager, name),
      source: `package.json scripts.${name}`,
      tool: manager,
    })
  }
  return found
}

type PackageManager = 'npm' | 'pnpm' | 'yarn' | 'bun'

function packageManagerOf(facts: ProjectFacts, declared: unknown): PackageManager {
  if (typeof declared === 'string') {
    const name = declared.split('@')[0]
    if (name === 'pnpm' || name === 'yarn' || name === 'bun' || name === 'npm') return name
  }
  if (facts.entries.has('pnpm-lock.yaml')) return 'pnpm'
  if (facts.entries.has('yarn.lock')) return 'yarn'
  if (facts.entries.has('bun.lockb') || facts.entries.has('bun.lock')) return 'bun'
  return 'npm'
}

function runScript(manager: PackageManager, script: string): string {
  switch (manager) {
    case 'npm':
      return script === 'test' ? 'npm test' : `npm run ${script}`
    case 'pnpm':
      return `pnpm run ${script}`
    case 'yarn':
      return `yarn run ${script}`
    case 'bun':
      return `bun run ${script}`
    default: {
      const never: never = manager
      return String(never)
    }
  }
}

function cargo(facts: ProjectFacts): Found[] {
  if (!facts.entries.has('Cargo.toml')) return []
  const source = 'Cargo.toml'
  return [
    { name: 'test', kind: 'test', command: 'cargo test', source, tool: 'cargo' },
    { name: 'typecheck', kind: 'typecheck', command: 'cargo check --all-targets', source, tool: 'cargo' },
    { name: 'build', kind: 'build', command: 'cargo build', source, tool: 'cargo' },
    { name: 'lint', kind: 'lint', command: 'cargo clippy', source, tool: 'cargo' },
  ]
}

function go(facts: ProjectFacts): Found[] {
  if (!facts.entries.has('go.mod')) return []
  const source = 'go.mod'
  return [
    { name: 'test', kind: 'test', command: 'go test ./...', source, tool: 'go' },
    { name: 'build', kind: 'build', command: 'go build ./...', source, tool: 'go' },
    { name: 'lint', kind: 'lint', command: 'go vet ./...', source, tool: 'go' },
  ]
}

function python(facts: ProjectFacts): Found[] {
  const pyproject = facts.files['pyproject.toml'] ?? ''
  const has = (name: string) => facts.entries.has(name)
  const section = (name: string) => new RegExp(`^\\[${name.replace(/\./g, '\\.')}\\]`, 'm').test(pyproject)
  const found: Found[] = []
  if (has('tox.ini'))
    found.push({ name: 'test', kind: 'test', command: 'tox', source: 'tox.ini', tool: 'tox' })
  else if (has('noxfile.py'))
    found.push({ name: 'test', kind: 'test', command: 'nox', source: 'noxfile.py', tool: 'nox' })
  const pytestSource = has('pytest.ini')
    ? 'pytest.ini'
    : section('tool.pytest.ini_options')
      ? 'pyproject.toml [tool.pytest.ini_options]'
      : has('conftest.py')
        ? 'conftest.py'
        : (has('pyproject.toml') || has('setup.py') || has('setup.cfg')) && (has('tests') || has('test'))
          ? `${has('tests') ? 'tests/' : 'test/'} beside ${has('pyproject.toml') ? 'pyproject.toml' : has('setup.py') ? 'setup.py' : 'setup.cfg'}`
          : undefined
  if (pytestSource !== undefined)
    found.push({
      name: 'test',
      kind: 'test',
      command: 'python -m pytest',
      source: pytestSource,
      tool: 'pytest',
    })
  if (has('pyrightconfig.json') || section('tool.pyright')) {
    const source = has('pyrightconfig.json') ? 'pyrightconfig.json' : 'pyproject.toml [tool.pyright]'
    found.push({ name: 'typecheck', kind: 'typecheck', command: 'pyright', source, tool: 'pyright' })
  } else if (has('mypy.ini') || section('tool.mypy')) {
    const source = has('mypy.ini') ? 'mypy.ini' : 'pyproject.toml [tool.mypy]'
    found.push({ name: 'typecheck', kind: 'typecheck', command: 'mypy .', source, tool: 'mypy' })
  }
  if (has('ruff.toml') || has('.ruff.toml') || section('tool.ruff')) {
    const source = has('ruff.toml')
      ? 'ruff.toml'
      : has('.ruff.toml')
        ? '.ruff.toml'
        : 'pyproject.toml [tool.ruff]'
    found.push({ name: 'lint', kind: 'lint', command: 'ruff check .', source, tool: 'ruff' })
  }
  return found
}

function deno(facts: ProjectFacts): Found[] {
  const name = ['deno.json', 'deno.jsonc'].find((file) => facts.entries.has(file))
  if (name === undefined) return []
  return [
    { name: 'test', kind: 'test', command: 'deno test', source: name, tool: 'deno' },
    { name: 'lint', kind: 'lint', command: 'deno lint', source: name, tool: 'deno' },
  ]
}

function gradle(facts: ProjectFacts): Found[] {
  const file = ['build.gradle.kts', 'build.gradle'].find((name) => facts.entries.has(name))
  if (file === undefined) return []
  const gradlew = facts.entries.has('gradlew') ? './gradlew' : 'gradle'
  return [
    { name: 'test', kind: 'test', command: `${gradlew} test`, source: file, tool: 'gradle' },
    { name: 'build', kind: 'build', command: `${gradlew} assemble`, source: file, tool: 'gradle' },
  ]
}

function maven(facts: ProjectFacts): Found[] {
  if (!facts.entries.has('pom.xml')) return []
  const mvn = facts.entries.has('mvnw') ? './mvnw' : 'mvn'
  return [
    { name: 'test', kind: 'test', command: `${mvn} test`, source: 'pom.xml', tool: 'maven' },
    { name: 'build', kind: 'build', command: `${mvn} compile`, source: 'pom.xml', tool: 'maven' },
  ]
}

function dotnet(facts: ProjectFacts): Found[] {
  const file = [...facts.entries].sort().find((name) => /\.(sln|csproj|fsproj|vbproj)$/.test(name))
  if (file === undefined) return []
  return [
    { name: 'test', kind: 'test', command: 'dotnet test', source: file, tool: 'dotnet' },
    { name: 'build', kind: 'build', command: 'dotnet build', source: file, tool: 'dotnet' },
  ]
}

function cmake(facts: ProjectFacts): Found[] {
  if (!facts.entries.has('CMakeLists.txt')) return []
  const source = 'CMakeLists.txt'
  return [
    {
      name: 'build',
      kind: 'build',
      command: 'cmake -S . -B build && cmake --build build',
      source,
      tool: 'cmake',
    },
    { name: 'test', kind: 'test', command: 'ctest --test-dir build', source, tool: 'ctest' },
  ]
}

/** Target names of a Makefile or justfile mapped to kinds. */
const TARGET_KINDS: ReadonlyArray<{ target: string; kind: CheckKind }> = [
  { target: 'test', kind: 'test' },
  { target: 'check', kind: 'test' },
  { target: 'typecheck', kind: 'typecheck' },
  { target: 'build', kind: 'build' },
  { target: 'lint', kind: 'lint' },
]

function targets(facts: ProjectFacts, tool: 'make' | 'just'): Found[] {
  const names =
    tool === 'make' ? ['GNUmakefile', 'makefile', 'Makefile'] : ['justfile', 'Justfile', '.justfile']
  const file = names.find((name) => facts.files[name] !== undefined)
  if (file === undefined) return []
  const text = facts.files[file] ?? ''
  // A rule or recipe starts at the line's start: `test:` or `test arg:` (just), never `X := 1`.
  const defined = new Set<string>()
  for (const match of text.matchAll(/^([A-Za-z_][\w-]*)(?:[ \t][^\n:]*)?:(?!=)/gm))
    defined.add(match[1] ?? '')
  const found: Found[] = []
  const kinds = new Set<CheckKind>()
  for (const { target, kind } of TARGET_KINDS) {
    if (!defined.has(target)) continue
    // `check` counts as the test target only when there is no `test`.
    if (kinds.has(kind)) continue
    kinds.add(kind)
    found.push({ name: kind, kind, command: `${tool} ${target}`, source: `${file} ${target}`, tool })
  }
  return found
}
