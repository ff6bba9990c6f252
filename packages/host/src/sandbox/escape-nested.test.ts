/**
 * The escape suite, protected files below the top level (issue 34): a write-confined command (a
 * rule-allowed `npm test`, a sandbox auto-allow) must not leave a file in a SUBFOLDER that the user's
 * own tools obey later — `crates/x/rust-toolchain.toml` (rustup picks the toolchain when the user
 * builds there), `sub/.envrc` (direnv), `pkg/.npmrc`, `web/.pre-commit-config.yaml`,
 * `sub/.vscode/tasks.json`, a nested repository's `.git` with hooks — nor change an existing one.
 * Skipped only when bwrap is not installed at all (never in CI, where setup.sh installs it).
 */
import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findShell } from '../process/shell.js'
import { detectSandboxBackend } from './detect.js'
import { runConfinedShell } from './run-confined.js'
import { Sandbox } from './sandbox.js'

const bwrapInstalled = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'].some((path) =>
  existsSync(path),
)
const run = bwrapInstalled || process.env.CI !== undefined

let base: string
let home: string
let env: Record<string, string>
let sandbox: Sandbox

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env, stdio: 'pipe' }).toString()

/** The files tools obey, one per shape of the class, with what a command would write there. */
const SHAPES = [
  'crates/x/rust-toolchain.toml',
  'sub/.envrc',
  'pkg/.npmrc',
  'web/.pre-commit-config.yaml',
  'sub/.vscode/tasks.json',
]

/** A project with a few subfolders: a repository with one commit, or (`git: false`) a plain folder. */
function project(name: string, options: { git: boolean; files?: Record<string, string> }): string {
  const root = join(base, name)
  const files = {
    'README.md': 'hello\n',
    'crates/x/src/lib.rs': '\n',
    'pkg/index.js': '\n',
    'web/a.html': '\n',
    'sub/a.txt': '\n',
    ...options.files,
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  if (options.git) {
    git(root, 'init', '-q', '-b', 'main')
    git(root, 'add', '.')
    git(root, 'commit', '-q', '-m', 'init')
  }
  return root
}

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'ze-escape-nested-')))
  home = join(base, 'home')
  mkdirSync(home)
  env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.com',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.com',
    GIT_CONFIG_NOSYSTEM: '1',
  }
  if (!run) return
  const backend = await detectSandboxBackend()
  if (backend.kind === 'none') throw new Error(`bwrap is installed but cannot start: ${backend.reason}`)
  sandbox = await Sandbox.create({ backend, settings: { enabled: true, allowNetwork: false }, home, env })
})

afterAll(async () => {
  await sandbox?.dispose()
  rmSync(base, { recursive: true, force: true })
})

/** Runs `command` write-confined with `root` as the agent's root, as the Bash tool does. */
function confined(command: string, root: string) {
  return runConfinedShell(command, {
    cwd: root,
    env,
    shellPath: findShell(env.PATH),
    timeoutMs: 20_000,
    sandbox,
    request: { root, additionalDirectories: [], granted: 'write' },
  })
}

/** A command that writes `evil` to each path, making its folders. */
const writeEach = (paths: readonly string[]) =>
  paths.map((path) => `mkdir -p ${dirname(path)} && echo evil > ${path}`).join('; ')

describe.skipIf(!run)('sandbox escape suite: protected files below the top level (issue 34)', () => {
  for (const withGit of [true, false]) {
    const kind = withGit ? 'a repository' : 'a folder without git'
    it(`removes the protected files a command created in subfolders, naming each (${kind})`, async () => {
      const root = project(`created-${withGit}`, { git: withGit })
      const result = await confined(`${writeEach(SHAPES)}; echo ordinary > sub/b.txt; echo done`, root)
      expect(result.output).toContain('done')
      for (const path of SHAPES) {
        expect({ path, exists: existsSync(join(root, path)) }).toEqual({ path, exists: false })
        expect(result.output).toContain(path.startsWith('sub/.vscode') ? 'sub/.vscode' : path)
      }
      expect(result.output).toContain('z-engine: removed')
      // Ordinary writes in the same subfolders stay.
      expect(readFileSync(join(root, 'sub/b.txt'), 'utf8')).toBe('ordinary\n')
      expect(existsSync(join(root, 'sub'))).toBe(true)
    })

    it(`cannot change the protected files that exist in subfolders (${kind})`, async () => {
      const files = Object.fromEntries(SHAPES.map((path) => [path, 'mine\n']))
      const root = project(`existing-${withGit}`, { git: withGit, files })
      const result = await confined(
        `${SHAPES.map((path) => `echo evil > ${path}; rm -f ${path}; mv ${dirname(path)} ${dirname(path)}-moved`).join('; ')}; echo done`,
        root,
      )
      expect(result.output).toContain('done')
      for (const path of SHAPES)
        expect({ path, text: readFileSync(join(root, path), 'utf8') }).toEqual({ path, text: 'mine\n' })
    })
  }

  it('leaves ordinary work alone: npm test writing into subfolders and an ignored node_modules runs as before', async () => {
    const pkg = JSON.stringify({ name: 'p', version: '1.0.0', scripts: { test: 'node test.js' } })
    const test = [
      "const fs = require('node:fs')",
      "fs.mkdirSync('packages/a/out', { recursive: true })",
      "fs.writeFileSync('packages/a/out/report.txt', 'ok')",
      "fs.writeFileSync('node_modules/dep/cache.json', '{}')",
      "console.log('tests passed')",
    ].join('\n')
    const root = project('precision', {
      git: true,
      files: {
        'package.json': pkg,
        'test.js': test,
        '.gitignore': 'node_modules/\n',
        'node_modules/dep/.npmrc': 'x=1\n',
        'node_modules/dep/index.js': '\n',
      },
    })
    const result = await confined('npm test --cache "$TMPDIR/npm" --logs-dir "$TMPDIR/npm-logs"', root)
    expect(result.output).toContain('tests passed')
    expect(result.output).not.toContain('z-engine: removed')
    expect(readFileSync(join(root, 'packages/a/out/report.txt'), 'utf8')).toBe('ok')
    expect(existsSync(join(root, 'node_modules/dep/cache.json'))).toBe(true)
  })

  it('removes a protected file created in a folder git ignores, new or listed by name', async () => {
    const root = project('ignored', { git: true, files: { '.gitignore': 'build/\n.envrc\n' } })
    const result = await confined(
      writeEach(['build/deep/.envrc', 'sub/.envrc', 'build/rust-toolchain']),
      root,
    )
    for (const path of ['build/deep/.envrc', 'sub/.envrc', 'build/rust-toolchain'])
      expect({ path, exists: existsSync(join(root, path)) }).toEqual({ path, exists: false })
    expect(result.output).toContain('build/deep/.envrc')
  })

  it('removes a nested repository a command made (its hooks would run on the next commit there), keeping its files', async () => {
    const root = project('nested-new', { git: true })
    const result = await confined(
      [
        'mkdir -p lib/inner && cd lib/inner && git init -q && echo "#!/bin/sh" > .git/hooks/pre-commit',
        'git config core.fsmonitor "touch /tmp/pwned" && echo code > main.c && echo done',
      ].join(' && '),
      root,
    )
    expect(result.output).toContain('done')
    expect(existsSync(join(root, 'lib/inner/.git'))).toBe(false)
    expect(readFileSync(join(root, 'lib/inner/main.c'), 'utf8')).toBe('code\n')
    expect(result.output).toContain('lib/inner/.git')
  })

  it("cannot change an existing nested repository's hooks or config", async () => {
    const root = project('nested-old', { git: true })
    const inner = join(root, 'vendor/inner')
    mkdirSync(inner, { recursive: true })
    git(inner, 'init', '-q', '-b', 'main')
    const config = readFileSync(join(inner, '.git/config'), 'utf8')
    await confined(
      'cd vendor/inner && git config core.fsmonitor evil; echo evil > .git/hooks/pre-commit; mv .git .git-old; mkdir .git',
      root,
    )
    expect(readFileSync(join(inner, '.git/config'), 'utf8')).toBe(config)
    expect(existsSync(join(inner, '.git/hooks/pre-commit'))).toBe(false)
  })
})
