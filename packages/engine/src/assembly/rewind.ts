import type { EventOf, PersistedEvent, RewindScope } from '@z-engine/protocol'
import type { SessionSnapshot, SessionStore } from '@z-engine/store'
import { planRewind } from '@z-engine/store'
import type { CheckpointPort, FileRewind, SessionLogPort } from '../session/services.js'
import type { SessionState } from '../session/state.js'

/** What a rewind reads and rebuilds: the session's journal, its store and its state. */
export interface RewindInput {
  sessionId: string
  /** Journals without publishing (the session core's `journal`). */
  journal: (event: PersistedEvent) => Promise<void>
  log: { sync: SessionLogPort['sync'] }
  store: Pick<SessionStore, 'replay'>
  state: Pick<SessionState, 'workingSet' | 'todos'>
  /**
   * Tells the user what a file rewind left alone. Codes: `rewindKept` (edited after the agent and
   * not mergeable), `rewindMerged` (the agent's hunks reverted, later edits kept), `rewindConflict`
   * (overlapping hunks left), `rewindLeftAlone` (not the agent's), `rewindUnmarked` (turns with no
   * end record), `undoKept` (edited since the rewind).
   */
  notice: (level: 'info' | 'warning', message: string, code: RewindNoticeCode) => void
}

/** The `code` of each notice a rewind or its undo gives. */
export type RewindNoticeCode =
  | 'rewindKept'
  | 'rewindMerged'
  | 'rewindConflict'
  | 'rewindLeftAlone'
  | 'rewindUnmarked'
  | 'undoKept'

/**
 * How a rewind runs: `dryRun` only reports; `includeEdited` reverts files edited after the agent
 * whole (not only the agent's hunks); `only` limits a code rewind to those files.
 */
export interface RewindOptions {
  dryRun?: boolean
  includeEdited?: boolean
  only?: readonly string[]
}

/**
 * Rewinds a session to the state before a user message (spec 004 "Session Storage and History"):
 * plan from the journal, restore files first (so a failed restore leaves the conversation as it
 * was), then journal the `rewound` event and rebuild the working set from the log. Returns the
 * event for the caller to publish, now that the session reflects it. Only what the agent changed
 * since the target is reverted (issue 19); a dry run returns `rewindPreviewed` and changes nothing.
 */
export async function rewindSession(
  input: RewindInput,
  checkpoints: CheckpointPort,
  messageId: string,
  scope: RewindScope,
  options: RewindOptions = {},
): Promise<EventOf<'rewound'> | EventOf<'rewindPreviewed'>> {
  if (options.only !== undefined && scope !== 'code')
    throw new Error("Cannot rewind: 'only' names files, so it needs the scope 'code'.")
  await input.log.sync()
  const before = await input.store.replay(input.sessionId)
  if (!before.ok) throw new Error(`Cannot rewind: ${before.error.message}`)
  const plan = planRewind(before.value.snapshot, { messageId, scope })
  if (!plan.ok) throw new Error(`Cannot rewind: ${plan.error.message}`)
  const removedMessageIds = scope === 'code' ? [] : messagesFrom(before.value.snapshot, messageId)
  const target = plan.value.checkpoint
  let files: FileRewind = {
    restored: [],
    skipped: [],
    leftAlone: [],
    unmarkedTurns: [],
    merged: [],
    conflicts: [],
  }
  if (target) {
    const since = before.value.snapshot.checkpoints
    const turns = since.slice(
      Math.max(
        0,
        since.findLastIndex((candidate) => candidate.id === target.id),
      ),
    )
    files = await checkpoints.restore(target, turns, {
      ...(options.dryRun ? { dryRun: true } : { undoKey: input.sessionId }),
      ...(options.includeEdited ? { includeEdited: true } : {}),
      ...(options.only !== undefined ? { only: options.only } : {}),
    })
  }
  if (options.dryRun)
    return {
      type: 'rewindPreviewed',
      messageId,
      scope,
      restoreFiles: files.restored,
      skippedFiles: files.skipped,
      leftAloneFiles: files.leftAlone,
      removedMessageIds,
      ...(target ? { checkpointId: target.id } : {}),
      ...(files.merged.length > 0 ? { mergeFiles: files.merged } : {}),
      ...(files.conflicts.length > 0 ? { conflictFiles: files.conflicts } : {}),
      ...(files.changes !== undefined ? { changes: files.changes } : {}),
    }
  if (files.skipped.length > 0)
    input.notice(
      'warning',
      `Rewind kept ${files.skipped.length} file(s) the agent changed that were edited afterwards and cannot be merged (binary, created or removed): ${preview(files.skipped)}. Rewind with includeEdited (--include-edited) to revert them too.`,
      'rewindKept',
    )
  const clean = files.merged.filter((path) => !files.conflicts.some((conflict) => conflict.path === path))
  if (clean.length > 0)
    input.notice(
      'info',
      `Rewind reverted only the agent's hunks in ${clean.length} file(s) edited afterwards, keeping the later edits: ${preview(clean)}.`,
      'rewindMerged',
    )
  for (const conflict of files.conflicts)
    input.notice(
      'warning',
      `Rewind left ${conflict.hunks.length} hunk(s) of ${conflict.path} where later edits overlap the agent's change (the rest was reverted). Keep it as it is, or revert the file whole: rewind with includeEdited and only ${conflict.path} (--include-edited --only ${conflict.path}).`,
      'rewindConflict',
    )
  if (files.leftAlone.length > 0)
    input.notice(
      'info',
      `Rewind left ${files.leftAlone.length} file(s) the agent did not change as they are: ${preview(files.leftAlone)}.`,
      'rewindLeftAlone',
    )
  if (files.unmarkedTurns.length > 0)
    input.notice(
      'warning',
      `No record of how ${files.unmarkedTurns.length} turn(s) ended (${preview(files.unmarkedTurns)}), so every change made during them was rewound, yours included.`,
      'rewindUnmarked',
    )
  const event: EventOf<'rewound'> = {
    ...plan.value.event,
    restoredFiles: files.restored,
    ...(target ? { skippedFiles: files.skipped, leftAloneFiles: files.leftAlone } : {}),
    ...(files.merged.length > 0 ? { mergedFiles: files.merged } : {}),
    ...(files.conflicts.length > 0 ? { conflictFiles: files.conflicts } : {}),
    ...(removedMessageIds.length > 0 ? { removedMessageIds } : {}),
  }
  await input.journal(event)
  await input.log.sync()
  if (scope !== 'code') {
    const after = await input.store.replay(input.sessionId)
    if (!after.ok)
      throw new Error(`Rewound, but the conversation could not be reloaded: ${after.error.message}`)
    input.state.workingSet = [...after.value.snapshot.workingSet]
    input.state.todos = [...after.value.snapshot.todos]
  }
  return event
}

/**
 * Puts back the files the session's last code rewind reverted, from the checkpoint taken just
 * before it; files edited since the rewind stay as they are. The conversation is not changed.
 */
export async function undoRewind(
  sessionId: string,
  checkpoints: CheckpointPort,
  notice: RewindInput['notice'],
): Promise<EventOf<'rewindUndone'>> {
  const undone = await checkpoints.undo?.(sessionId)
  if (undone === undefined)
    throw new Error(
      'Nothing to undo: this session has no code rewind that changed files since the last undo.',
    )
  if (undone.skipped.length > 0)
    notice(
      'warning',
      `Undo kept ${undone.skipped.length} file(s) edited since the rewind as they are: ${preview(undone.skipped)}.`,
      'undoKept',
    )
  return { type: 'rewindUndone', restoredFiles: undone.restored, skippedFiles: undone.skipped }
}

/** The ids of the messages a conversation rewind to `messageId` drops: it and every later one. */
function messagesFrom(snapshot: SessionSnapshot, messageId: string): string[] {
  const ids: string[] = []
  let found = false
  for (const item of snapshot.transcript) {
    if (item.kind !== 'message') continue
    found ||= item.message.id === messageId
    if (found && item.message.id !== undefined) ids.push(item.message.id)
  }
  return ids
}

function preview(items: readonly string[]): string {
  return items.length <= 5 ? items.join(', ') : `${items.slice(0, 5).join(', ')} and ${items.length - 5} more`
}
