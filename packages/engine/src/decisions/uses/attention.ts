import { askJson, text } from '../ask-json.js'
import type { DecisionUse } from '../use.js'

/** Scores how urgently an item waiting on the user needs them. */
export const attention: DecisionUse<'attention'> = {
  feature: 'decisions_attention',
  seam: 'attention',
  summary: 'scores how urgently a waiting approval, question or plan needs the user',
  async decide(input, ctx) {
    const answer = await askJson(
      ctx,
      this.feature,
      'The agent waits on the user for this item. How urgent is it, from 0 (can wait) to 1 (blocks everything)? {"score": 0.5, "reason": "..."}.',
      { kind: input.kind, title: input.title },
    )
    const score = answer.score
    if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1) return undefined
    return { score, reason: text(answer.reason, 200) ?? '' }
  },
  describe: (advice) => `urgency ${advice.score.toFixed(2)}`,
}
