/** `findProjectRoot`: the repository root or nearest `.z-engine/`, never the home folder from below it. */
import { mkdir, mkdtemp, realpath, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findProjectRoot } from '../src/index.js'

async function tree(): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), 'zp-root-')))
}

describe('findProjectRoot', () => {
  it('walks up to the folder holding .git', async () => {
    const base = await tree()
    await mkdir(join(base, 'repo', '.git'), { recursive: true })
    await mkdir(join(base, 'repo', 'src', 'deep'), { recursive: true })
    expect(await findProjectRoot(join(base, 'repo', 'src', 'deep'), join(base, 'home'))).toBe(
      join(base, 'repo'),
    )
  })

  it('takes a .git file (worktree, submodule) and a nearer .z-engine/ folder', async () => {
    const base = await tree()
    await mkdir(join(base, 'wt', 'packages', 'a', '.z-engine'), { recursive: true })
    await writeFile(join(base, 'wt', '.git'), 'gitdir: /elsewhere\n')
    const home = join(base, 'home')
    expect(await findProjectRoot(join(base, 'wt', 'packages'), home)).toBe(join(base, 'wt'))
    expect(await findProjectRoot(join(base, 'wt', 'packages', 'a'), home)).toBe(
      join(base, 'wt', 'packages', 'a'),
    )
  })

  it('never climbs to a dotfiles repository in the home folder, unless started there', async () => {
    const home = await tree()
    await mkdir(join(home, '.git'))
    await mkdir(join(home, 'notes', 'week'), { recursive: true })
    expect(await findProjectRoot(join(home, 'notes', 'week'), home)).toBe(join(home, 'notes', 'week'))
    expect(await findProjectRoot(home, home)).toBe(home)
  })

  it('answers the folder itself when nothing marks a project, with symlinks resolved', async () => {
    const base = await tree()
    await mkdir(join(base, 'plain'))
    await symlink(join(base, 'plain'), join(base, 'link'))
    expect(await findProjectRoot(join(base, 'link'), join(base, 'home'))).toBe(join(base, 'plain'))
  })

  it('rejects a folder that does not exist', async () => {
    const base = await tree()
    await expect(findProjectRoot(join(base, 'missing'), base)).rejects.toThrow(/ENOENT/)
  })
})
