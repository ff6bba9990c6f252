import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { gitHooksFolder, prefetchGitHooksFolder } from './hooks-folder.js'
import { git } from './test-tree.js'

const base = realpathSync(mkdtempSync(join(tmpdir(), 'ze-hooks-folder-')))
afterAll(() => rmSync(base, { recursive: true, force: true }))
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(base, 'home') }

it('is what git says: .git/hooks, then core.hooksPath once set, from a subfolder too', () => {
  const repo = join(base, 'repo')
  mkdirSync(join(repo, 'src'), { recursive: true })
  git(repo, 'init', '-q')
  expect(gitHooksFolder(repo, { env })).toBe(join(repo, '.git', 'hooks'))
  git(repo, 'config', 'core.hooksPath', '.githooks')
  expect(gitHooksFolder(repo, { env })).toBe(join(repo, '.githooks'))
  expect(gitHooksFolder(join(repo, 'src'), { env })).toBe(join(repo, '.githooks'))
})

it('still reads core.hooksPath from a .git folder git does not accept; nothing outside a repository', () => {
  const broken = join(base, 'broken')
  mkdirSync(join(broken, '.git'), { recursive: true })
  writeFileSync(join(broken, '.git', 'config'), '[core]\n\thooksPath = ~/hooks\n')
  expect(gitHooksFolder(broken, { env })).toBe(join(base, 'home', 'hooks'))
  const plain = join(base, 'plain')
  mkdirSync(plain)
  expect(gitHooksFolder(plain, { env })).toBeUndefined()
})

it('prefetches in the background: the next lookup starts no git until the config changes', async () => {
  const repo = join(base, 'prefetched')
  mkdirSync(repo, { recursive: true })
  git(repo, 'init', '-q')
  git(repo, 'config', 'core.hooksPath', 'hooks-here')
  // A `git` first on PATH that logs each run.
  const bin = join(base, 'bin')
  const log = join(base, 'git-runs.log')
  mkdirSync(bin, { recursive: true })
  writeFileSync(join(bin, 'git'), `#!/bin/sh\necho run >> '${log}'\nexec ${gitPath()} "$@"\n`, {
    mode: 0o755,
  })
  const logged = { ...env, PATH: `${bin}:${env.PATH}` }
  const runs = () => readFileSync(log, 'utf8').split('\n').filter(Boolean).length
  await Promise.all([
    prefetchGitHooksFolder(repo, { env: logged }),
    prefetchGitHooksFolder(repo, { env: logged }),
  ])
  expect(runs()).toBe(1)
  expect(gitHooksFolder(repo, { env: logged })).toBe(join(repo, 'hooks-here'))
  await prefetchGitHooksFolder(repo, { env: logged })
  expect(runs()).toBe(1)
  git(repo, 'config', 'core.hooksPath', 'elsewhere')
  expect(gitHooksFolder(repo, { env: logged })).toBe(join(repo, 'elsewhere'))
  expect(runs()).toBe(2)
})

/** The real git's path (the wrapper must not find itself). */
function gitPath(): string {
  return execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()
}
