import type { Message, TaskView } from '@z-engine/protocol'
import type { DecisionHub } from '../hub.js'
import { buildTaskView, planTaskView } from './task-view-plan.js'

/** What the turn-start seam's on uses advise: reminders for the opening message, and a task view. */
export interface TurnStartAdvice {
  reminders: string[]
  /** The view to apply before the opening message (journaled first), when one leaves something out. */
  view?: TaskView
}

/**
 * Turn start (spec 000 table): reminders from every on use in order, and the task view built from
 * the first task-view advice. The view is planned again from the same history and the advice
 * checked against it, so advice naming anything but a candidate exchange gives no view.
 */
export async function turnStartAdvice(
  hub: DecisionHub | undefined,
  prompt: string,
  history: readonly Message[],
  signal: AbortSignal,
  newId: (prefix: string) => string,
): Promise<TurnStartAdvice> {
  if (!hub?.joins('turnStart')) return { reminders: [] }
  const advice = await hub.consult('turnStart', { prompt, history }, signal)
  const reminders = advice.flatMap((one) => (one.kind === 'reminders' ? one.reminders : []))
  const keep = advice.find((one) => one.kind === 'taskView')
  if (keep === undefined || signal.aborted) return { reminders }
  const plan = planTaskView(history)
  const view =
    plan.kind === 'plan'
      ? buildTaskView(plan, keep.keep, { viewId: newId('tv'), indexId: newId('m') })
      : undefined
  return view === undefined ? { reminders } : { reminders, view }
}
