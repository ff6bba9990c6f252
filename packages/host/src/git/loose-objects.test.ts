import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { updateLooseRefs, writeLooseCommit } from './loose-objects.js'

let gitDir: string
const IDENT = 'z-engine <checkpoints@z-engine.invalid>'
const gitEnv = {
  PATH: process.env.PATH,
  HOME: tmpdir(),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_DIR: '',
}
const git = (...args: string[]) =>
  execFileSync('git', args, { env: { ...gitEnv, GIT_DIR: gitDir }, encoding: 'utf8' }).trim()

beforeEach(async () => {
  gitDir = await mkdtemp(join(tmpdir(), 'z-loose-'))
  execFileSync('git', ['init', '-q', '--bare', gitDir], { env: gitEnv })
})

afterEach(async () => {
  await rm(gitDir, { recursive: true, force: true })
})

/** The empty tree, stored: a valid tree for commits in these tests. */
const emptyTree = () =>
  execFileSync('git', ['hash-object', '-t', 'tree', '-w', '--stdin'], {
    env: { ...gitEnv, GIT_DIR: gitDir },
    input: '',
    encoding: 'utf8',
  }).trim()

describe('writeLooseCommit', () => {
  it('writes the same object git commit-tree writes, which git reads and fsck accepts', async () => {
    const tree = emptyTree()
    const time = 1_800_000_000
    const dated = {
      ...gitEnv,
      GIT_DIR: gitDir,
      GIT_AUTHOR_NAME: 'z-engine',
      GIT_AUTHOR_EMAIL: 'checkpoints@z-engine.invalid',
      GIT_COMMITTER_NAME: 'z-engine',
      GIT_COMMITTER_EMAIL: 'checkpoints@z-engine.invalid',
      GIT_AUTHOR_DATE: `${time} +0000`,
      GIT_COMMITTER_DATE: `${time} +0000`,
    }
    const first = await writeLooseCommit(gitDir, { tree, message: 'before m1', ident: IDENT, time })
    const byGit = execFileSync('git', ['commit-tree', tree, '-m', 'before m1'], {
      env: dated,
      encoding: 'utf8',
    })
    expect(first).toBe(byGit.trim())
    const second = await writeLooseCommit(gitDir, {
      tree,
      parent: first!,
      message: 'after t1',
      ident: IDENT,
      time,
    })
    expect(git('rev-parse', `${second}^`)).toBe(first)
    expect(git('log', '--format=%s', second!)).toBe('after t1\nbefore m1')
    // Writing an object that exists already is a no-op returning the same id.
    expect(await writeLooseCommit(gitDir, { tree, message: 'before m1', ident: IDENT, time })).toBe(first)
    git('update-ref', 'refs/heads/probe', second!)
    expect(() => git('fsck', '--strict', '--no-dangling')).not.toThrow()
  })

  it('declines ids that are not SHA-1, for git to handle', async () => {
    expect(
      await writeLooseCommit(gitDir, { tree: 'a'.repeat(64), message: 'x', ident: IDENT }),
    ).toBeUndefined()
  })
})

describe('updateLooseRefs', () => {
  it('moves several refs all or nothing, comparing the expected old value first', async () => {
    const tree = emptyTree()
    const one = (await writeLooseCommit(gitDir, { tree, message: 'one', ident: IDENT }))!
    const two = (await writeLooseCommit(gitDir, { tree, parent: one, message: 'two', ident: IDENT }))!
    const zero = '0'.repeat(40)
    expect(await updateLooseRefs(gitDir, [{ ref: 'refs/z/head', to: one, from: zero }])).toBe('updated')
    expect(git('rev-parse', 'refs/z/head')).toBe(one)
    // The old value no longer matches: nothing moves, the mark included.
    expect(
      await updateLooseRefs(gitDir, [
        { ref: 'refs/z/marks/a', to: two },
        { ref: 'refs/z/head', to: two, from: zero },
      ]),
    ).toBe('conflict')
    expect(() => git('rev-parse', '--verify', '-q', 'refs/z/marks/a')).toThrow()
    expect(git('rev-parse', 'refs/z/head')).toBe(one)
    expect(
      await updateLooseRefs(gitDir, [
        { ref: 'refs/z/head', to: two, from: one },
        { ref: 'refs/z/marks/a', to: two },
      ]),
    ).toBe('updated')
    expect(git('rev-parse', 'refs/z/head', 'refs/z/marks/a')).toBe(`${two}\n${two}`)
  })

  it('respects a lock git holds, and leaves packed refs to git', async () => {
    const tree = emptyTree()
    const one = (await writeLooseCommit(gitDir, { tree, message: 'one', ident: IDENT }))!
    git('update-ref', 'refs/z/head', one)
    await writeFile(join(gitDir, 'refs/z/head.lock'), '')
    expect(await updateLooseRefs(gitDir, [{ ref: 'refs/z/head', to: one, from: one }])).toBe('conflict')
    await rm(join(gitDir, 'refs/z/head.lock'))
    git('pack-refs', '--all')
    expect(await readFile(join(gitDir, 'packed-refs'), 'utf8')).toContain('refs/z/head')
    expect(await updateLooseRefs(gitDir, [{ ref: 'refs/z/head', to: one, from: one }])).toBe('unsupported')
  })
})
