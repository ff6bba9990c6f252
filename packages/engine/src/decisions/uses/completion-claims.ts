import { askJson, clip, text } from '../ask-json.js'
import type { DecisionUse } from '../use.js'

/** Finds a claim of completion in a final answer that no check backs. */
export const completionClaims: DecisionUse<'completion'> = {
  feature: 'decisions_completion_claims',
  seam: 'completion',
  summary: 'flags a claim of completion ("all tests pass") that no check backs',
  async decide(input, ctx) {
    const answer = await askJson(
      ctx,
      this.feature,
      'Does this final answer claim the work is complete, fixed or tested? Quote the claim exactly: {"claim": "..."}. No claim: {}.',
      { finalAnswer: clip(input.finalText, 4_000) },
    )
    const claim = text(answer.claim, 500)
    return claim === undefined ? undefined : { claim }
  },
  describe: (advice) => `claim "${advice.claim.slice(0, 80)}"`,
}
