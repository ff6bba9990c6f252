import { join, resolve } from 'node:path'
import { type CheckpointResult, checkpointRepoDir, ShadowCheckpoints } from '@z-engine/host'
import type { Checkpoint, RewindConflict } from '@z-engine/protocol'
import { unifiedDiff } from '@z-engine/tools'
import type { CheckpointPort } from '../session/services.js'

/** What the checkpoint port needs. */
export interface CheckpointPortOptions {
  dataDir: string
  projectRoot: string
  env: Readonly<Record<string, string | undefined>>
  newId: (prefix: string) => string
  onNotice: (level: 'warning', message: string) => void
  /** The user's home directory: a session started there (or in `/`) takes no checkpoints. */
  home: string
  /** `checkpoints.max_files`: files one checkpoint may capture before it is skipped. */
  maxFiles: number
  /** `checkpoints.max_mb`: MiB one checkpoint may copy before it is skipped. */
  maxMb: number
  /** Whether a Read deny rule covers an absolute path: such files are never captured or restored. */
  readDenied?: (path: string) => boolean
  /** Whether any deny rule exists now; false spares a snapshot asking `readDenied` of every path. */
  denyRules?: () => boolean
}

/**
 * Shadow-git checkpoints before each user turn (spec 000 "Persistence"). The repository opens on
 * the first turn, not when the session opens, so startup never waits for git. Failures are notices:
 * a turn never fails because its checkpoint could not be taken. They never run away (issue 17): a
 * session in `/` or the home directory takes none, and a checkpoint that would capture more than
 * the budget (`checkpoints.max_files`, `checkpoints.max_mb`) is skipped, copying nothing. Files
 * under Read deny rules (`Read(.env)`) are never copied into the checkpoint store and a rewind
 * leaves them as they are (issue 13).
 */
export function createCheckpointPort(options: CheckpointPortOptions): CheckpointPort {
  let opened: Promise<ShadowCheckpoints | undefined> | undefined
  let overBudgetNoticed = false
  const { readDenied } = options
  const repo = () => {
    const root = resolve(options.projectRoot)
    if (root === '/' || root === resolve(options.home)) {
      opened ??= Promise.resolve().then(() => {
        const where = root === '/' ? 'the filesystem root' : 'your home directory'
        options.onNotice(
          'warning',
          `Checkpoints are off for this session: it was started in ${where}, too large to snapshot. Start it in a project folder to be able to rewind files.`,
        )
        return undefined
      })
      return opened
    }
    opened ??= ShadowCheckpoints.open({
      projectRoot: options.projectRoot,
      gitDir: checkpointRepoDir(options.dataDir, options.projectRoot),
      env: options.env,
      maxFiles: options.maxFiles,
      maxBytes: options.maxMb * 1024 * 1024,
      ...(readDenied !== undefined ? { exclude: (path: string) => readDenied(join(root, path)) } : {}),
      ...(options.denyRules !== undefined ? { excludesAny: options.denyRules } : {}),
    }).then((result) => {
      if (result.ok) return result.value
      options.onNotice('warning', `Checkpoints are off for this session: ${result.error.message}`)
      return undefined
    })
    return opened
  }
  return {
    async create(messageId, turnId) {
      const checkpoints = await repo()
      if (!checkpoints) return undefined
      const snapshot = await checkpoints.snapshot(`before ${messageId}`)
      if (!snapshot.ok) {
        // Over budget is said once a session; it is tried again each turn (the tree may shrink).
        if (snapshot.error.code === 'overBudget' && overBudgetNoticed) return undefined
        overBudgetNoticed ||= snapshot.error.code === 'overBudget'
        options.onNotice('warning', `No checkpoint before this turn: ${snapshot.error.message}`)
        return undefined
      }
      const checkpoint: Checkpoint = {
        id: options.newId('cp'),
        messageId,
        commit: snapshot.value.commit,
        turnId,
      }
      return checkpoint
    },
    async afterTurn(turnId, before, mutated) {
      if (!before) return
      const checkpoints = await repo()
      if (!checkpoints) return
      const marked = mutated
        ? await checkpoints.snapshotAndMark(afterTurnMark(turnId), `after ${turnId}`)
        : await checkpoints.mark(afterTurnMark(turnId), before.commit)
      if (!marked.ok)
        options.onNotice(
          'warning',
          `Could not record how this turn left the files (${marked.error.message}); rewinding to it will treat every later change as the agent's.`,
        )
    },
    async restore(checkpoint, turns = [checkpoint], restoreOptions = {}) {
      const checkpoints = await repo()
      if (!checkpoints)
        throw new Error('checkpoints are unavailable in this session, so files cannot be rewound')
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
          agentSteps.set(path, [
            ...(agentSteps.get(path) ?? []),
            { from: turn.commit, to: end ?? now.commit },
          ])
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
    },
    async undo(undoKey) {
      const checkpoints = await repo()
      if (!checkpoints)
        throw new Error('checkpoints are unavailable in this session, so a rewind cannot be undone')
      const before = await checkpoints.marked(undoMark(undoKey, 'before'))
      const after = await checkpoints.marked(undoMark(undoKey, 'after'))
      if (before === undefined || after === undefined) return undefined
      const now = must(await checkpoints.snapshot('before undoing the rewind'))
      const rewound = must(await checkpoints.changedPaths(after, before))
      const editedSince = new Set(must(await checkpoints.changedPaths(after, now.commit)))
      const putBack = rewound.filter((path) => !editedSince.has(path))
      const restored = must(await checkpoints.restore(before, { only: putBack }))
      must(await checkpoints.unmark(undoMark(undoKey, 'before')))
      must(await checkpoints.unmark(undoMark(undoKey, 'after')))
      return {
        restored: restored.changedPaths.sort(),
        skipped: rewound.filter((path) => editedSince.has(path)).sort(),
      }
    },
  }
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
function must<T>(result: CheckpointResult<T>): T {
  if (!result.ok) throw new Error(result.error.message)
  return result.value
}

/** The marks an undo reads: the tree before and after a session's last code rewind. */
function undoMark(undoKey: string, side: 'before' | 'after'): string {
  return `rewind-${side}-${undoKey.replace(/[^A-Za-z0-9._-]/g, '_')}`
}

/** The mark naming the checkpoint of the tree as a turn left it. */
function afterTurnMark(turnId: string): string {
  return `after-${turnId.replace(/[^A-Za-z0-9._-]/g, '_')}`
}
