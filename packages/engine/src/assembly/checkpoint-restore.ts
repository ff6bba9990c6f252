import type { CheckpointResult, ShadowCheckpoints } from '@z-engine/host'
import type { Checkpoint, RewindConflict } from '@z-engine/protocol'
import { unifiedDiff } from '@z-engine/tools'
import type { CheckpointPort } from '../session/services.js'

/**
 * A code rewind to `checkpoint`: files the agent changed in `turns` (the target's and every later
 * one) go back, a file edited since the agent left it loses only the agent's hunks (conflicts
 * reported), files the agent never touched are left alone. A dry run says what it would do, with
 * diffs; a real one marks the trees before and after so `undoKey` can undo it.
 */
export async function restoreCheckpoint(
  checkpoints: ShadowCheckpoints,
  checkpoint: Checkpoint,
  turns: readonly Checkpoint[],
  restoreOptions: NonNullable<Parameters<CheckpointPort['restore']>[2]>,
): ReturnType<CheckpointPort['restore']> {
  // The tree as it is now: what the rewind compares against, and the checkpoint an undo returns to.
  const now = must(await checkpoints.snapshot('before rewinding'))
  // What the agent changed: in each turn since the target, from its start to how it ended. A
  // path's last such turn end is how the agent left it; differing from that now, it was edited
  // afterwards, and reverting it whole would destroy that edit: only the agent's hunks go.
  const lastAgentState = new Map<string, string | undefined>()
  const agentSteps = new Map<string, Array<{ from: string; to: string }>>()
  const unmarkedTurns: string[] = []
  for (const [index, turn] of turns.entries()) {
    const id = turn.turnId ?? turn.messageId
    const mark = await checkpoints.marked(afterTurnMark(id))
    // No record of the turn's end (a crash, or a session from before marks): up to the next
    // turn's start, or to now. That may include the user's changes; the caller says so.
    if (mark === undefined) unmarkedTurns.push(id)
    const end = mark ?? turns[index + 1]?.commit
    for (const path of must(await checkpoints.changedPaths(turn.commit, end ?? now.commit))) {
      lastAgentState.set(path, end)
      agentSteps.set(path, [...(agentSteps.get(path) ?? []), { from: turn.commit, to: end ?? now.commit }])
    }
  }
  const editedSince = new Map<string, Set<string>>()
  const edited = async (path: string, end: string | undefined) => {
    if (end === undefined || end === now.commit) return false
    let changed = editedSince.get(end)
    if (changed === undefined) {
      changed = new Set(must(await checkpoints.changedPaths(end, now.commit)))
      editedSince.set(end, changed)
    }
    return changed.has(path)
  }
  const only = restoreOptions.only === undefined ? undefined : new Set(restoreOptions.only)
  const since = must(await checkpoints.changedPaths(checkpoint.commit, now.commit)).filter(
    (path) => only === undefined || only.has(path),
  )
  const revert: string[] = []
  const skipped: string[] = []
  const leftAlone: string[] = []
  const merged: string[] = []
  const conflicts: RewindConflict[] = []
  const mergedDiffs: Array<{ path: string; unifiedDiff: string }> = []
  const dryRun = restoreOptions.dryRun === true
  for (const path of since) {
    if (!lastAgentState.has(path)) leftAlone.push(path)
    else if (restoreOptions.includeEdited || !(await edited(path, lastAgentState.get(path))))
      revert.push(path)
    else {
      const hunks = must(await checkpoints.revertHunks(path, agentSteps.get(path) ?? [], { dryRun }))
      if (hunks === undefined) skipped.push(path)
      else {
        merged.push(path)
        if (hunks.conflicts.length > 0)
          conflicts.push({
            path,
            hunks: hunks.conflicts.map((conflict) => ({
              current: conflict.ours,
              agent: conflict.base,
              restored: conflict.theirs,
            })),
          })
        if (dryRun) mergedDiffs.push({ path, unifiedDiff: unifiedDiff(path, hunks.before, hunks.after) })
      }
    }
  }
  const report = {
    skipped: skipped.sort(),
    leftAlone: leftAlone.sort(),
    unmarkedTurns,
    merged: merged.sort(),
    conflicts: conflicts.sort((a, b) => a.path.localeCompare(b.path)),
  }
  if (dryRun) {
    const whole = must(await checkpoints.diff(now.commit, checkpoint.commit))
    const wanted = new Set(revert)
    const changes = [...patchByFile(whole.patch).filter((file) => wanted.has(file.path)), ...mergedDiffs]
    return {
      restored: revert.sort(),
      ...report,
      changes: changes.sort((a, b) => a.path.localeCompare(b.path)),
    }
  }
  const restored = must(await checkpoints.restore(checkpoint.commit, { only: revert }))
  if (restoreOptions.undoKey !== undefined && (restored.changedPaths.length > 0 || merged.length > 0)) {
    // The trees just before and just after, so `undo` can put back exactly what this changed.
    const after = must(await checkpoints.snapshot('after rewinding'))
    must(await checkpoints.mark(undoMark(restoreOptions.undoKey, 'before'), now.commit))
    must(await checkpoints.mark(undoMark(restoreOptions.undoKey, 'after'), after.commit))
  }
  return { restored: restored.changedPaths.sort(), ...report }
}

/** A multi-file `git diff` split into one unified diff per file (named by its new path). */
function patchByFile(patch: string): Array<{ path: string; unifiedDiff: string }> {
  const files: Array<{ path: string; unifiedDiff: string }> = []
  for (const part of patch.split(/^(?=diff --git )/m)) {
    const header = /^diff --git a\/(.*) b\/(.*)$/m.exec(part)
    if (header?.[2] !== undefined) files.push({ path: header[2], unifiedDiff: part })
  }
  return files
}

/** A checkpoint result's value, or its message thrown (the rewind reports it as a failed command). */
export function must<T>(result: CheckpointResult<T>): T {
  if (!result.ok) throw new Error(result.error.message)
  return result.value
}

/** The marks an undo reads: the tree before and after a session's last code rewind. */
export function undoMark(undoKey: string, side: 'before' | 'after'): string {
  return `rewind-${side}-${undoKey.replace(/[^A-Za-z0-9._-]/g, '_')}`
}

/** The mark naming the checkpoint of the tree as a turn left it. */
export function afterTurnMark(turnId: string): string {
  return `after-${turnId.replace(/[^A-Za-z0-9._-]/g, '_')}`
}
