import type { CompletionClaim, Message, TaskView } from '@z-engine/protocol'
import { uncheckedClaim } from './seams/completion.js'
import { type RouteRequest, type RouteSession, routeRun } from './seams/route.js'
import { applyTaskView } from './seams/task-view-plan.js'
import { judgeTurnInBackground } from './seams/turn-end.js'
import { type TurnStartAdvice, turnStartAdvice } from './seams/turn-start.js'

/**
 * The decision seams a main turn consults, in the order it meets them: the one interface through
 * which the experimental features reach the turn (docs/decisions.md). Each does nothing while no use
 * of its seam is on.
 */
export interface TurnSeams {
  /** Turn start: reminders for the opening message, and a task view to apply before it. */
  start(prompt: string, history: readonly Message[], signal: AbortSignal): Promise<TurnStartAdvice>
  /** The working set with the start's task view applied. */
  applyView(workingSet: readonly Message[], view: TaskView): Message[]
  /** Route: the turn's model and effort, raised only, announced; undefined to keep them. */
  route(request: RouteRequest, signal: AbortSignal): ReturnType<typeof routeRun>
  /** Completion: the claim in the final answer no passing check backs, if any. */
  uncheckedClaim(
    input: { finalText: string; messageId: string; mutated: boolean; verified: boolean },
    signal: AbortSignal,
  ): Promise<CompletionClaim | undefined>
  /** Turn end, in the background: the user's tone and a suggested next prompt. */
  judgeInBackground(input: { turnId: string; prompt: string; finalText: string }): void
}

/** The seams of one session's turns, over its decision hub. */
export function turnSeams(session: RouteSession): TurnSeams {
  const hub = session.services.decisions
  return {
    start: (prompt, history, signal) => turnStartAdvice(hub, prompt, history, signal, session.newId),
    applyView: applyTaskView,
    route: (request, signal) => routeRun(session, request, signal),
    uncheckedClaim: (input, signal) => uncheckedClaim(hub, input, signal),
    judgeInBackground: (input) => judgeTurnInBackground(session, input),
  }
}
