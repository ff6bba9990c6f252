import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prepareViewFiles } from '../sandbox/view-files.js'
import { gitConfigEntries } from './git-config-entries.js'
import { gitHooksFolder } from './hooks-folder.js'
import { projectGit, projectGitSync } from './project-git.js'

// A repository whose own `.git/config` names a program on every key git runs one from while the
// engine only lists files or reads config (issue 34: a downloaded project can bring its `.git`).
let base: string
let repo: string
let canary: string
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '' }

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'ze-project-git-')))
  repo = join(base, 'repo')
  env.HOME = join(base, 'home')
  mkdirSync(env.HOME)
  mkdirSync(repo)
  canary = join(base, 'ran')
  const program = join(base, 'program.sh')
  writeFileSync(program, `#!/bin/sh\necho "$0 $*" >> ${canary}\nexit 1\n`, { mode: 0o755 })
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env, stdio: 'pipe' })
  git('init', '-q', '-b', 'main')
  writeFileSync(join(repo, 'a.txt'), 'a\n')
  git('add', '.')
  git('-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'init')
  for (const [key, value] of [
    ['core.fsmonitor', program],
    ['core.hooksPath', 'hooks-here'],
    ['core.pager', program],
    ['diff.external', program],
    ['core.sshCommand', program],
  ])
    git('config', key as string, value as string)
  writeFileSync(join(repo, 'b.txt'), 'untracked\n')
})

afterAll(() => rmSync(base, { recursive: true, force: true }))

describe("the engine's own git calls in a repository it does not control (issue 34)", () => {
  it('plain git ls-files runs the repository’s fsmonitor (so the next tests mean something)', () => {
    execFileSync('git', ['ls-files', '--others'], { cwd: repo, env, stdio: 'pipe' })
    expect(existsSync(canary)).toBe(true)
    rmSync(canary)
  })

  it('projectGit lists files, reads config and finds the hooks folder without running anything', async () => {
    const listed = await projectGit(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: repo,
      env,
    })
    expect(listed.ok && listed.stdout.split('\0').filter(Boolean).sort()).toEqual(['a.txt', 'b.txt'])
    expect(projectGitSync(['status', '--porcelain'], { cwd: repo, env }).ok).toBe(true)
    const entries = gitConfigEntries(repo, env)
    expect(entries).toContainEqual({ scope: 'local', key: 'core.fsmonitor' })
    // The hooks lookup keeps core.hooksPath (it reads it) and still runs no fsmonitor.
    expect(gitHooksFolder(repo, { env })).toBe(join(repo, 'hooks-here'))
    await prepareViewFiles(env.HOME, env)
    expect(existsSync(canary)).toBe(false)
  })

  it('a GIT_DIR in the engine’s environment does not send the call to another repository', async () => {
    const listed = await projectGit(['ls-files'], {
      cwd: repo,
      env: { ...env, GIT_DIR: join(base, 'nowhere') },
    })
    expect(listed).toMatchObject({ ok: true })
  })
})
