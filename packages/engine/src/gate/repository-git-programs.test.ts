import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runConfinedShell } from '@z-engine/host'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkPermission } from './check-permission.js'

// Issue 34 class 1: a repository's own `.git/config` names programs git runs on read-only commands.
// Each case configures one key in a real repository to touch a marker file; the gate must either
// refuse to prove the line (ask) or allow it confined, and running it as a session would (the
// allow's confinement granted, which brings the neutralising git environment) must never run the
// program. The control case shows the same line run plainly does run it.

let base: string
let home: string

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'ze-gitprog-')))
  home = join(base, 'home')
  mkdirSync(home)
})
afterAll(() => rmSync(base, { recursive: true, force: true }))

const ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: '',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
}

let count = 0
/** A repository with a modified tracked file (so diff and status have work) and `key` set to touch the marker. */
function repository(
  config: ReadonlyArray<readonly [string, string]>,
  attributes = '',
): { dir: string; marker: string } {
  count += 1
  const dir = join(base, `repo${count}`)
  const marker = join(base, `ran${count}`)
  mkdirSync(dir)
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: { ...ENV, HOME: home } })
  git('init', '-q')
  git('config', 'user.email', 'a@b.c')
  git('config', 'user.name', 'a')
  writeFileSync(join(dir, 'a.txt'), 'one\n')
  if (attributes !== '') writeFileSync(join(dir, '.gitattributes'), attributes)
  git('add', '-A')
  git('commit', '-qm', 'init')
  writeFileSync(join(dir, 'a.txt'), 'one\ntwo\n')
  for (const [key, value] of config) git('config', key, value.replaceAll('MARKER', marker))
  return { dir, marker }
}

async function run(line: string, dir: string, granted: boolean): Promise<void> {
  await runConfinedShell(line, {
    cwd: dir,
    env: { ...ENV, HOME: home },
    timeoutMs: 10_000,
    request: { root: dir, additionalDirectories: [], ...(granted ? { granted: 'read-only' as const } : {}) },
  })
}

function decision(line: string, dir: string) {
  const result = checkPermission({ tool: 'Bash', input: { command: line }, cwd: dir, home })
  if (!result.ok) throw new Error(result.error)
  return result
}

const TOUCH = 'touch MARKER; false'

describe('git in a repository whose config names programs (issue 34)', () => {
  it('the control: run plainly, the configured fsmonitor and diff.external do run', async () => {
    const { dir, marker } = repository([
      ['core.fsmonitor', TOUCH],
      ['diff.external', TOUCH],
    ])
    await run('git diff', dir, false)
    expect(existsSync(marker)).toBe(true)
  })

  // Keys the engine overrides: the line stays proven and runs without the program.
  it.each<[key: string, value: string, line: string]>([
    ['core.fsmonitor', TOUCH, 'git status'],
    ['core.fsmonitor', TOUCH, 'git diff'],
    ['diff.external', TOUCH, 'git diff'],
    ['diff.external', TOUCH, 'git diff HEAD'],
    ['core.pager', TOUCH, 'git log -n 1'],
    ['pager.log', TOUCH, 'git log -n 1'],
    ['core.hooksPath', '/nonexistent', 'git status'],
    ['core.sshCommand', TOUCH, 'git status'],
    ['gpg.program', TOUCH, "git log '--format=%G?' -n 1"],
    ['alias.status', `!${TOUCH}`, 'git status'],
  ])('%s is neutralised for %j', async (key, value, line) => {
    const { dir, marker } = repository([
      [key, value],
      ['log.showSignature', 'true'],
    ])
    const verdict = decision(line, dir)
    expect(verdict).toMatchObject({ decision: 'allow' })
    await run(line, dir, true)
    expect(existsSync(marker)).toBe(false)
  })

  // Keys naming a driver, an include, another work tree or submodules: git is not proven there.
  it.each<[config: Array<[string, string]>, attributes: string, line: string]>([
    [[['diff.evil.textconv', TOUCH]], '*.txt diff=evil\n', 'git diff'],
    [[['diff.evil.textconv', TOUCH]], '*.txt diff=evil\n', 'git blame a.txt'],
    [[['diff.evil.command', TOUCH]], '*.txt diff=evil\n', 'git diff'],
    [[['filter.evil.clean', TOUCH]], '*.txt filter=evil\n', 'git status'],
    [[['filter.evil.process', TOUCH]], '*.txt filter=evil\n', 'git diff'],
    [[['filter.evil.smudge', TOUCH]], '*.txt filter=evil\n', 'git show HEAD:a.txt'],
    [[['merge.evil.driver', TOUCH]], '*.txt merge=evil\n', 'git log -n 1'],
    [[['include.path', '/dev/null']], '', 'git status'],
    [[['includeIf.gitdir:/.path', '/dev/null']], '', 'git status'],
    [[['core.worktree', '/']], '', 'git diff'],
    [[['submodule.x.url', '/dev/null']], '', 'git status'],
  ])('%j: git is not proven, so it asks', (config, attributes, line) => {
    const { dir } = repository(config, attributes)
    const verdict = decision(line, dir)
    expect(verdict).toMatchObject({ decision: 'ask' })
    expect((verdict as { reason: string }).reason).toMatch(/git config sets/)
  })

  /**
   * A nested repository the index records as a gitlink, with no `submodule.*` in the parent's
   * config (a confined command can make one: nested `.git` folders are not the root's): `git status`
   * and `git diff` recurse into it and run its own filter driver on a file whose stat changed.
   */
  function nestedRepository(): { dir: string; marker: string } {
    const { dir, marker } = repository([])
    const sub = join(dir, 'sub')
    mkdirSync(sub)
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', args, { cwd, env: { ...ENV, HOME: home } }).toString()
    git(sub, 'init', '-q')
    git(sub, 'config', 'user.email', 'a@b.c')
    git(sub, 'config', 'user.name', 'a')
    writeFileSync(join(sub, 'b.txt'), 'one\n')
    writeFileSync(join(sub, '.gitattributes'), '* filter=evil\n')
    git(sub, 'add', '-A')
    git(sub, 'commit', '-qm', 'sub')
    git(sub, 'config', 'filter.evil.clean', `sh -c 'touch ${marker}; cat'`)
    git(dir, 'update-index', '--add', '--cacheinfo', `160000,${git(sub, 'rev-parse', 'HEAD').trim()},sub`)
    // Same size, another mtime: git must hash the file again, through the filter.
    utimesSync(join(sub, 'b.txt'), 1_000_000, 1_000_000)
    return { dir, marker }
  }

  it("the control: a nested repository's filter runs on a plain git status in the parent", async () => {
    const { dir, marker } = nestedRepository()
    await run('git status', dir, false)
    expect(existsSync(marker)).toBe(true)
  })

  it.each(['git status', 'git diff', 'git diff HEAD', 'git status --porcelain=v2'])(
    'a nested repository (a gitlink) cannot run its filter through a proven %j',
    async (line) => {
      const { dir, marker } = nestedRepository()
      expect(decision(line, dir)).toMatchObject({ decision: 'allow' })
      await run(line, dir, true)
      expect(existsSync(marker)).toBe(false)
    },
  )

  it.each([
    'git status --ignore-submodules=none',
    'git status --ignore-submodules=untracked',
    'git diff --ignore-submodules=none',
    'git diff --submodule=diff',
  ])('%j asks for the submodules the neutral config keeps out', (line) => {
    const { dir } = repository([])
    expect(decision(line, dir)).toMatchObject({ decision: 'ask' })
  })

  it('the everyday lines still run without asking in a plain repository', () => {
    const { dir } = repository([])
    for (const line of [
      'git status',
      'git log -n 5',
      'git diff HEAD~0',
      'git show HEAD --stat',
      'git blame a.txt',
    ])
      expect(decision(line, dir)).toMatchObject({ decision: 'allow' })
  })

  it('git --help (its viewer comes from man.viewer) is not proven', () => {
    const { dir } = repository([
      ['man.viewer', 'evil'],
      ['man.evil.cmd', TOUCH],
    ])
    expect(decision('git --help log', dir)).toMatchObject({ decision: 'ask' })
  })
})
