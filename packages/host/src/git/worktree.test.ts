import { mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { dotGitState, git, treeState, writeFiles } from './test-tree.js'
import {
  type AgentWorktree,
  commitAgentWorktree,
  createAgentWorktree,
  openAgentWorktree,
  pruneAgentWorktrees,
  removeAgentWorktree,
  type WorktreeResult,
} from './worktree.js'
import { mergeAgentBranch } from './worktree-merge.js'

let scratch: string
let project: string

function value<T>(result: WorktreeResult<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`)
  return result.value
}

function gitOut(cwd: string, args: string[]): string {
  return git(cwd, ...args).trim()
}

beforeEach(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), 'z-worktree-')))
  project = join(scratch, 'project')
  await writeFiles(project, { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'bee\n' })
  git(project, 'init', '-q')
  git(project, 'add', '-A')
  git(project, 'commit', '-qm', 'init')
})

afterEach(async () => {
  await rm(scratch, { recursive: true, force: true })
})

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  )
}

describe('agent worktrees', () => {
  it('refuses outside a git repository with a message that says what to do', async () => {
    const plain = join(scratch, 'plain')
    await writeFiles(plain, { 'x.txt': 'x\n' })
    const created = await createAgentWorktree(plain, 'ag1')
    expect(created).toMatchObject({ ok: false, error: { code: 'notGitRepository' } })
    if (!created.ok) expect(created.error.message).toMatch(/git init/)
  })

  it('creates a branch worktree, commits the agent changes and merges them into the working tree', async () => {
    const worktree = value(await createAgentWorktree(project, 'ag1'))
    expect(worktree.path).toBe(join(project, '.z-engine', 'worktrees', 'ag1'))
    expect(worktree.branch).toBe('zengine/ag1')
    expect(gitOut(worktree.path, ['rev-parse', '--abbrev-ref', 'HEAD'])).toBe('zengine/ag1')
    // The checkout is invisible to the project's own git.
    expect(gitOut(project, ['status', '--porcelain', '--untracked-files=all'])).toBe('')
    await writeFile(join(worktree.path, 'a.txt'), 'one\ntwo\nthree\nfour\n')
    await writeFile(join(worktree.path, 'new.txt'), 'new\n')
    // The user edits another line of the same file meanwhile: both changes must survive.
    await writeFile(join(project, 'a.txt'), 'ONE\ntwo\nthree\n')

    const committed = value(await commitAgentWorktree(worktree, 'agent ag1'))
    expect(committed).toMatchObject({ type: 'pending', changedFiles: ['a.txt', 'new.txt'] })
    expect(await readFile(join(project, 'a.txt'), 'utf8')).toBe('ONE\ntwo\nthree\n')
    expect(await exists(join(project, 'new.txt'))).toBe(false)

    // A staged change of the user's stays staged, and the index stays byte for byte the same.
    await writeFile(join(project, 'b.txt'), 'bee staged\n')
    git(project, 'add', 'b.txt')
    const stagedIndex = await readFile(join(project, '.git', 'index'))
    const merged = value(await mergeAgentBranch(project, worktree.branch))
    expect(merged).toEqual({
      type: 'applied',
      changedFiles: [join(project, 'a.txt'), join(project, 'new.txt')],
    })
    expect(await readFile(join(project, '.git', 'index'))).toEqual(stagedIndex)
    expect(await readFile(join(project, 'b.txt'), 'utf8')).toBe('bee staged\n')
    expect(gitOut(project, ['diff', '--cached', '--name-only'])).toBe('b.txt')
    expect(await readFile(join(project, 'a.txt'), 'utf8')).toBe('ONE\ntwo\nthree\nfour\n')
    expect(await readFile(join(project, 'new.txt'), 'utf8')).toBe('new\n')
    // The user's branch is untouched.
    expect(gitOut(project, ['rev-parse', '--abbrev-ref', 'HEAD'])).toBe('main')
  })

  it('reports conflicts and leaves the project byte for byte as it was', async () => {
    const worktree: AgentWorktree = value(await createAgentWorktree(project, 'ag2'))
    await writeFile(join(worktree.path, 'a.txt'), 'one\nagent\nthree\n')
    await writeFile(join(worktree.path, 'b.txt'), 'bee and more\n')
    value(await commitAgentWorktree(worktree, 'agent ag2'))
    await writeFile(join(project, 'a.txt'), 'one\nuser\nthree\n')
    const before = await treeState(project)
    const gitBefore = await dotGitState(project)

    const merged = value(await mergeAgentBranch(project, worktree.branch))
    expect(merged).toEqual({ type: 'conflicted', conflicts: ['a.txt'] })
    expect(await treeState(project)).toEqual(before)
    const gitAfter = await dotGitState(project)
    // Only new objects may appear (the snapshot commit); refs, index and config are the same.
    for (const [path, digest] of gitBefore) {
      if (!path.startsWith('objects/')) expect(gitAfter.get(path), path).toBe(digest)
    }
  })

  it('ends empty when the agent changed nothing, and discard removes the worktree and branch', async () => {
    const worktree = value(await createAgentWorktree(project, 'ag3'))
    expect(value(await commitAgentWorktree(worktree, 'agent ag3'))).toEqual({ type: 'empty' })
    value(await removeAgentWorktree(project, worktree))
    expect(await exists(worktree.path)).toBe(false)
    expect(gitOut(project, ['branch', '--list', 'zengine/*'])).toBe('')
    expect(gitOut(project, ['worktree', 'list'])).not.toContain('ag3')
  })

  it('prunes worktrees whose folders are gone and keeps the others', async () => {
    const gone = value(await createAgentWorktree(project, 'gone'))
    const kept = value(await createAgentWorktree(project, 'kept'))
    await rm(gone.path, { recursive: true, force: true })
    value(await pruneAgentWorktrees(project))
    const listed = gitOut(project, ['worktree', 'list'])
    expect(listed).not.toContain('gone')
    expect(listed).toContain(kept.path)
    // Without agent worktrees nothing runs, even outside a repository.
    expect(await pruneAgentWorktrees(join(scratch, 'nowhere'))).toEqual({ ok: true, value: undefined })
  })

  it('re-opens a recorded worktree with its base, and refuses one whose folder is gone', async () => {
    const created = value(await createAgentWorktree(project, 'again'))
    await writeFile(join(created.path, 'b.txt'), 'changed\n')
    value(await commitAgentWorktree(created, 'agent again'))
    const reopened = value(await openAgentWorktree(project, { path: created.path, branch: created.branch }))
    expect(reopened).toEqual(created)
    await rm(created.path, { recursive: true, force: true })
    expect(await openAgentWorktree(project, created)).toMatchObject({ ok: false })
  })

  it('roots the agent in the project folder of a worktree when the project is a subfolder of its repository', async () => {
    const app = join(project, 'app')
    await writeFiles(app, { 'main.txt': 'main\n' })
    git(project, 'add', '-A')
    git(project, 'commit', '-qm', 'app')
    const worktree = value(await createAgentWorktree(app, 'sub'))
    expect(worktree.path).toBe(join(app, '.z-engine', 'worktrees', 'sub'))
    expect(worktree.root).toBe(join(worktree.path, 'app'))
    await writeFile(join(worktree.root, 'main.txt'), 'main changed\n')
    expect(value(await commitAgentWorktree(worktree, 'agent sub'))).toMatchObject({
      changedFiles: ['app/main.txt'],
    })
    expect(value(await mergeAgentBranch(app, worktree.branch))).toEqual({
      type: 'applied',
      changedFiles: [join(app, 'main.txt')],
    })
    expect(await readFile(join(app, 'main.txt'), 'utf8')).toBe('main changed\n')
  })
})
