import type { DecisionHub } from '../hub.js'

/** Continuations the stop seam may add per turn (spec 000 "Stop boundary", step 4). */
export const MAX_DECISION_CONTINUATIONS = 1

/**
 * Stop boundary (main agent, after verification): one reminder to continue the run, at most
 * {@link MAX_DECISION_CONTINUATIONS} per turn; the first on use's reminder wins.
 */
export async function stopReminder(
  hub: DecisionHub | undefined,
  input: { finalText: string; mutated: boolean; prompt: string },
  used: number,
  signal: AbortSignal,
): Promise<string | undefined> {
  if (used >= MAX_DECISION_CONTINUATIONS || !hub?.joins('stopBoundary')) return undefined
  const [first] = await hub.consult('stopBoundary', input, signal)
  return first?.reminder
}
