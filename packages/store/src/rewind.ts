import type { Checkpoint, LogRecordOf, RewindScope } from '@z-engine/protocol'
import { failure, type StoreResult, success } from './result.js'
import type { SessionSnapshot } from './snapshot.js'

/** What the engine does to rewind: restore `checkpoint` (host) if set, then append `record`. */
export interface RewindPlan {
  /** Append after restoring files; replay then drops the conversation from `messageId` on (unless scope is code). */
  record: LogRecordOf<'rewind'>
  /** The working-tree snapshot to restore with the host's `restoreCheckpoint`, for code and both. */
  checkpoint?: Checkpoint
}

/** Ids and time for the record a rewind appends. */
export interface RewindRequest {
  messageId: string
  scope: RewindScope
  recordId: string
  at: string
  turnId?: string
}

/**
 * Plans a rewind to the state before a user message. The store and the host cannot import each
 * other, so the engine combines them:
 *
 *   const plan = planRewind(snapshot, request)          // @z-engine/store
 *   if (plan.value.checkpoint) await checkpoints.restore(plan.value.checkpoint.commit)  // @z-engine/host
 *   await log.append(plan.value.record)                  // journal it; replay applies it
 *
 * Files go first so a failed restore leaves the conversation as it was.
 */
export function planRewind(snapshot: SessionSnapshot, request: RewindRequest): StoreResult<RewindPlan> {
  const target = snapshot.transcript.find(
    (item) =>
      item.kind === 'message' && item.message.id === request.messageId && item.message.role === 'user',
  )
  if (target === undefined) {
    return failure(
      'notFound',
      `no user message ${request.messageId} in the conversation; pick one from the transcript`,
    )
  }
  const record: LogRecordOf<'rewind'> = {
    type: 'rewind',
    id: request.recordId,
    at: request.at,
    messageId: request.messageId,
    scope: request.scope,
    ...(request.turnId !== undefined ? { turnId: request.turnId } : {}),
  }
  if (request.scope === 'conversation') return success({ record })
  const checkpoint = snapshot.checkpoints.findLast((candidate) => candidate.messageId === request.messageId)
  if (checkpoint === undefined) {
    return failure(
      'notFound',
      `no checkpoint was taken before message ${request.messageId}; rewind the conversation only`,
    )
  }
  return success({ record: { ...record, checkpointId: checkpoint.id }, checkpoint })
}
