import type { ApprovalDecision, ApprovalRequest } from '@z-engine/protocol'
import { scoreAttentionInBackground } from '../decisions/seams/attention.js'
import type { EventScope } from './event-hub.js'
import type { SessionCore } from './session-core.js'

/**
 * Announces a batch's approvals together and waits until each is answered, in any order, through
 * the session's broker; every answer is journaled (`approvalResolved`). A cancelled wait becomes a
 * deny. Waits are registered before anything is announced, so a host may answer from inside its
 * event callback.
 */
export async function requestApprovals(
  session: SessionCore,
  requests: ApprovalRequest[],
  signal: AbortSignal,
  options: {
    /** Where the records and events belong (turn for the main agent, agent id for subagents). */
    scope: EventScope
    /** Feedback recorded for a wait cancelled with its run. */
    cancelledFeedback: string
  },
): Promise<Map<string, ApprovalDecision>> {
  const { scope } = options
  const waits = requests.map((request) => session.approvals.wait(request.id, signal))
  for (const request of requests) {
    await session.commit({ type: 'approvalRequested', request }, scope)
  }
  for (const request of requests)
    scoreAttentionInBackground(session, { itemId: request.id, kind: 'approval', title: request.title })
  const tools = [...new Set(requests.map((request) => request.toolName))].join(', ')
  void session.services.hooks.notification?.(`Z Engine needs your permission to use ${tools}`).catch(() => {})
  const answers = new Map<string, ApprovalDecision>()
  await Promise.all(
    requests.map(async (request, index) => {
      const outcome = await waits[index]!
      const decision: ApprovalDecision =
        outcome.type === 'answered' ? outcome.answer : { type: 'deny', feedback: options.cancelledFeedback }
      await session.commit({ type: 'approvalResolved', approvalId: request.id, decision }, scope)
      if (outcome.type === 'answered') answers.set(request.id, outcome.answer)
    }),
  )
  return answers
}
