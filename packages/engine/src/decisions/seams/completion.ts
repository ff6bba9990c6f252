import type { CompletionClaim } from '@z-engine/protocol'
import type { DecisionHub } from '../hub.js'

/**
 * Completion: a claim of completion in the final answer of a turn that changed files and that no
 * passing check backs. The claim must be quoted from the answer word for word. Returns the claim
 * for `completionClaimUnchecked` (the badge is untouched), or undefined.
 */
export async function uncheckedClaim(
  hub: DecisionHub | undefined,
  input: { finalText: string; messageId: string; mutated: boolean; verified: boolean },
  signal: AbortSignal,
): Promise<CompletionClaim | undefined> {
  if (!input.mutated || input.verified || input.finalText === '' || !hub?.joins('completion'))
    return undefined
  const advice = await hub.consult('completion', input, signal)
  const claim = advice.find((one) => input.finalText.includes(one.claim))
  return claim === undefined ? undefined : { text: claim.claim, messageId: input.messageId }
}
