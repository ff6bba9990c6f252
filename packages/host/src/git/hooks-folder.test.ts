import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { gitHooksFolder } from './hooks-folder.js'
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
