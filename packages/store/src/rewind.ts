import type { Checkpoint, EventOf, RewindScope } from '@z-engine/protocol'
import { failure, type StoreResult, success } from './result.js'
import type { SessionSnapshot } from './snapshot.js'

/** What the engine does to rewind: restore `checkpoint` (host) if set, then commit `event`. */
export interface RewindPlan {
  /**
   * The `rewound` event to journal after restoring files (the engine adds `restoredFiles`); replay
   * then drops the conversation from `messageId` on (unless scope is code).
   */
  event: EventOf<'rewound'>
  /** The working-tree snapshot to restore with the host's `restoreCheckpoint`, for code and both. */
  checkpoint?: Checkpoint
}

/** Which user message to rewind to, and what to rewind. */
export interface RewindRequest {
  messageId: string
  scope: RewindScope
}

/**
 * Plans a rewind to the state before a user message. The store and the host cannot import each
 * other, so the engine combines them:
 *
 *   const plan = planRewind(snapshot, request)          // @z-engine/store
 *   if (plan.value.checkpoint) await checkpoints.restore(plan.value.checkpoint.commit)  // @z-engine/host
 *   await session.commit(plan.value.event)               // journal it; replay applies it
 *
 * Files go first so a failed restore leaves the conversation as it was.
 */
export function planRewind(snapshot: SessionSnapshot, request: RewindRequest): StoreResult<RewindPlan> {
  const target = snapshot.transcript.find(
    (item) =>
      item.kind === 'message' && item.message.id === request.messageId && item.message.role === 'user',
  )
  // A code rewind only needs the checkpoint: its message may already have left the conversation
  // (e.g. reverting whole, after a rewind, a file whose hunks conflicted).
  const kept =
    request.scope === 'code' &&
    snapshot.checkpoints.some((candidate) => candidate.messageId === request.messageId)
  if (target === undefined && !kept) {
    return failure(
      'notFound',
      `no user message ${request.messageId} in the conversation; pick one from the transcript`,
    )
  }
  const event: EventOf<'rewound'> = { type: 'rewound', messageId: request.messageId, scope: request.scope }
  if (request.scope === 'conversation') return success({ event })
  const checkpoint = snapshot.checkpoints.findLast((candidate) => candidate.messageId === request.messageId)
  if (checkpoint === undefined) {
    return failure(
      'notFound',
      `no checkpoint was taken before message ${request.messageId}; rewind the conversation only`,
    )
  }
  return success({ event: { ...event, checkpointId: checkpoint.id }, checkpoint })
}
