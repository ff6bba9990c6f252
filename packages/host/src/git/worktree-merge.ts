import { copyFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { type GitContext, gitOk, runGit } from './git-runner.js'
import { applyTreeChanges, treeChanges } from './restore-tree.js'
import {
  AGENT_WORKTREES_DIR,
  findProjectRepository,
  repositoryContext,
  type WorktreeGitOptions,
  type WorktreeResult,
} from './worktree.js'

/** What merging an agent's branch into the project did. */
export type WorktreeMerge =
  | { type: 'applied'; changedFiles: string[] }
  | { type: 'conflicted'; conflicts: string[] }

// Merges into one repository run one at a time: each reads the working tree, then writes it.
const merging = new Map<string, Promise<unknown>>()

/**
 * Three-way merges an agent's branch into the project's working tree. The user's side is a snapshot
 * of the working tree (uncommitted changes included) taken in a throwaway index, so the real index
 * and branches are never touched. Clean: the merged files are written (absolute paths returned).
 * Conflicts: nothing in the project is written and the conflicting paths are returned.
 */
export async function mergeAgentBranch(
  projectRoot: string,
  branch: string,
  options: WorktreeGitOptions = {},
): Promise<WorktreeResult<WorktreeMerge>> {
  const repo = await findProjectRepository(projectRoot, options)
  if (!repo.ok) return repo
  const key = repo.value.gitDir
  const previous = merging.get(key) ?? Promise.resolve()
  const run = previous.then(async (): Promise<WorktreeResult<WorktreeMerge>> => {
    const context = repositoryContext(repo.value, options)
    const scratch = await mkdtemp(join(tmpdir(), 'z-merge-'))
    try {
      const worktrees = relative(repo.value.toplevel, join(repo.value.projectRoot, AGENT_WORKTREES_DIR))
      const ours = await snapshotWorkingTree({ ...context, indexFile: join(scratch, 'index') }, worktrees)
      const merged = await runGit(context, [
        'merge-tree',
        '--write-tree',
        '-z',
        '--name-only',
        ours.commit,
        branch,
      ])
      if (merged.code !== 0 && merged.code !== 1) {
        return {
          ok: false,
          error: {
            code: 'gitFailed',
            message: `git merge-tree failed: ${merged.stderr.trim().slice(0, 500)}`,
          },
        }
      }
      // -z --name-only: the tree, then one conflicted path per field, an empty field, then messages.
      const [tree = '', ...rest] = merged.stdout.toString('utf8').split('\0')
      if (merged.code === 1) {
        const end = rest.indexOf('')
        const conflicts = [...new Set(end === -1 ? rest : rest.slice(0, end))]
        return { ok: true, value: { type: 'conflicted', conflicts } }
      }
      const changes = await treeChanges(context, ours.tree, tree.trim())
      await applyTreeChanges(context, changes)
      const changedFiles = changes.map((change) => join(repo.value.toplevel, change.path))
      return { ok: true, value: { type: 'applied', changedFiles } }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      return { ok: false, error: { code: 'gitFailed', message } }
    } finally {
      await rm(scratch, { recursive: true, force: true })
    }
  })
  merging.set(
    key,
    run.catch(() => undefined),
  )
  return run
}

/**
 * Records the working tree as a commit on top of HEAD through a throwaway index (honouring
 * .gitignore), leaving the agent worktrees out. The commit is referenced by nothing.
 */
async function snapshotWorkingTree(
  context: GitContext,
  worktreesDir: string,
): Promise<{ tree: string; commit: string }> {
  const addAll = () => gitOk(context, ['add', '-A', '--', '.', `:(exclude)${worktreesDir}`])
  // A copy of the user's index (read, never written) lets git reuse its stat data instead of
  // hashing every file. When there is none, or git cannot use the copy (a split index), start
  // from HEAD.
  const copied = await copyFile(join(context.gitDir, 'index'), context.indexFile ?? '')
    .then(
      () => addAll().then(() => true),
      () => false,
    )
    .catch(() => false)
  if (!copied) {
    await gitOk(context, ['read-tree', 'HEAD'])
    await addAll()
  }
  const tree = (await gitOk(context, ['write-tree'])).toString('utf8').trim()
  const commit = (await gitOk(context, ['commit-tree', tree, '-p', 'HEAD', '-m', 'z-engine: working tree']))
    .toString('utf8')
    .trim()
  return { tree, commit }
}
