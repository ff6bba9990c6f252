import { type GitContext, gitOk, runGit } from './git-runner.js'
import { type RefUpdate, updateLooseRefs, writeLooseCommit } from './loose-objects.js'

/** Author and committer of checkpoint commits (as the fixed `user.name` / `user.email` config). */
const COMMIT_IDENT = 'z-engine <checkpoints@z-engine.invalid>'

/** `git commit-tree`, written in process when the repository allows (see loose-objects.ts). */
export async function commitTree(
  context: GitContext,
  tree: string,
  parent: string | undefined,
  message: string,
): Promise<string> {
  const written = await writeLooseCommit(context.gitDir, {
    tree,
    ...(parent !== undefined ? { parent } : {}),
    message,
    ident: COMMIT_IDENT,
  })
  if (written !== undefined) return written
  const parentArgs = parent !== undefined ? ['-p', parent] : []
  return (await gitOk(context, ['commit-tree', tree, ...parentArgs, '-m', message])).toString('utf8').trim()
}

/**
 * Moves refs all or nothing (`from`: compare-and-swap); undefined when done, else why not. In
 * process when the refs are loose, else with `git update-ref --stdin`.
 */
export async function updateRefs(
  context: GitContext,
  updates: readonly RefUpdate[],
): Promise<string | undefined> {
  const result = await updateLooseRefs(context.gitDir, updates)
  if (result === 'updated') return undefined
  if (result === 'conflict') return 'the ref moved meanwhile or is locked by another process'
  const input = updates
    .map(
      (update) => `update ${update.ref} ${update.to}${update.from !== undefined ? ` ${update.from}` : ''}\n`,
    )
    .join('')
  const done = await runGit(context, ['update-ref', '--stdin'], { input })
  return done.code === 0 ? undefined : done.stderr.toString().trim()
}

/** The tree of a checkpoint, or undefined when `commit` names none. */
export async function treeOf(context: GitContext, commit: string): Promise<string | undefined> {
  if (!/^[0-9a-f]{4,64}$/.test(commit)) return undefined
  const output = await runGit(context, ['rev-parse', '-q', '--verify', `${commit}^{tree}`])
  return output.code === 0 ? output.stdout.toString('utf8').trim() : undefined
}
