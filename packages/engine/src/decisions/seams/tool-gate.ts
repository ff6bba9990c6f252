import type { DecisionHub } from '../hub.js'
import type { SeamInput } from '../seam-types.js'

/**
 * Tool gate (review_call): consulted only for a call that would be allowed. Advice can only turn
 * that Allow into an Ask — with no rule to suggest or persist; it never allows, denies or changes
 * an Ask. Returns the reason for the approval card, or undefined (the Allow stands).
 */
export async function reviewAllowedCall(
  hub: DecisionHub | undefined,
  input: SeamInput<'toolGate'>,
  signal: AbortSignal,
): Promise<string | undefined> {
  if (!hub?.joins('toolGate')) return undefined
  const advice = await hub.consult('toolGate', input, signal)
  if (advice.length === 0) return undefined
  return `the decision service asked for review: ${advice.map((one) => one.reason).join('; ')}`
}
