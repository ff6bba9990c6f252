import type { EventOf, PersistedEvent, RewindScope } from '@z-engine/protocol'
import type { SessionStore } from '@z-engine/store'
import { planRewind } from '@z-engine/store'
import type { CheckpointPort, SessionLogPort } from '../session/services.js'
import type { SessionState } from '../session/state.js'

/** What a rewind reads and rebuilds: the session's journal, its store and its state. */
export interface RewindInput {
  sessionId: string
  /** Journals without publishing (the session core's `journal`). */
  journal: (event: PersistedEvent) => Promise<void>
  log: { sync: SessionLogPort['sync'] }
  store: Pick<SessionStore, 'replay'>
  state: Pick<SessionState, 'workingSet' | 'todos'>
  /** Tells the user what a file rewind left alone. */
  notice: (level: 'info' | 'warning', message: string) => void
}

/**
 * Rewinds a session to the state before a user message (spec 004 "Session Storage and History"):
 * plan from the journal, restore files first (so a failed restore leaves the conversation as it
 * was), then journal the `rewound` event and rebuild the working set from the log. Returns the
 * event for the caller to publish, now that the session reflects it.
 */
export async function rewindSession(
  input: RewindInput,
  checkpoints: CheckpointPort,
  messageId: string,
  scope: RewindScope,
): Promise<EventOf<'rewound'>> {
  await input.log.sync()
  const before = await input.store.replay(input.sessionId)
  if (!before.ok) throw new Error(`Cannot rewind: ${before.error.message}`)
  const plan = planRewind(before.value.snapshot, { messageId, scope })
  if (!plan.ok) throw new Error(`Cannot rewind: ${plan.error.message}`)
  const target = plan.value.checkpoint
  let restoredFiles: string[] = []
  if (target) {
    // Only what the agent changed in the turns since the target is rewound (issue 19).
    const since = before.value.snapshot.checkpoints
    const turns = since.slice(
      Math.max(
        0,
        since.findLastIndex((candidate) => candidate.id === target.id),
      ),
    )
    const files = await checkpoints.restore(target, turns)
    restoredFiles = files.restored
    if (files.leftAlone.length > 0)
      input.notice(
        'info',
        `Rewind left ${files.leftAlone.length} file(s) the agent did not change as they are: ${preview(files.leftAlone)}.`,
      )
    if (files.unmarkedTurns.length > 0)
      input.notice(
        'warning',
        `No record of how ${files.unmarkedTurns.length} turn(s) ended (${preview(files.unmarkedTurns)}), so every change made during them was rewound, yours included.`,
      )
  }
  const event: EventOf<'rewound'> = { ...plan.value.event, restoredFiles }
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

function preview(items: readonly string[]): string {
  return items.length <= 5 ? items.join(', ') : `${items.slice(0, 5).join(', ')} and ${items.length - 5} more`
}
