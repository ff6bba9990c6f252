import type { CheckpointDiff, CheckpointFileChange } from './checkpoint-types.js'
import { type GitContext, gitOk, splitNul } from './git-runner.js'

const STATUS: Record<string, CheckpointFileChange['status']> = {
  A: 'added',
  M: 'modified',
  D: 'deleted',
  T: 'typeChanged',
}

/** What differs from one tree to another, with renames, leaving out what `isExcluded` names. */
export async function treeDiff(
  context: GitContext,
  fromTree: string,
  toTree: string,
  isExcluded: (path: string) => boolean,
): Promise<CheckpointDiff> {
  const names = splitNul(
    await gitOk(context, ['diff-tree', '-r', '-z', '-M', '--name-status', fromTree, toTree]),
  )
  const files: CheckpointFileChange[] = []
  for (let index = 0; index < names.length; ) {
    const code = names[index] ?? ''
    if (code.startsWith('R') || code.startsWith('C')) {
      files.push({ status: 'renamed', oldPath: names[index + 1] ?? '', path: names[index + 2] ?? '' })
      index += 3
    } else {
      files.push({ status: STATUS[code] ?? 'modified', path: names[index + 1] ?? '' })
      index += 2
    }
  }
  // Excluded files (in checkpoints taken before their rule) stay out of the list and the patch.
  const shown = files.filter(
    (file) => !isExcluded(file.path) && (file.oldPath === undefined || !isExcluded(file.oldPath)),
  )
  if (shown.length === 0) return { files: [], patch: '' }
  const pathspecs =
    shown.length === files.length
      ? []
      : [
          '--',
          ...new Set(
            shown.flatMap((file) => [file.path, ...(file.oldPath !== undefined ? [file.oldPath] : [])]),
          ),
        ]
  const patch = await gitOk(
    context,
    ['diff-tree', '-p', '-M', '--no-color', '--no-ext-diff', fromTree, toTree, ...pathspecs],
    { env: { GIT_LITERAL_PATHSPECS: '1' } },
  )
  return { files: shown, patch: patch.toString('utf8') }
}
