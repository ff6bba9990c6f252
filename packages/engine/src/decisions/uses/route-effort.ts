import { askJson, clip, text } from '../ask-json.js'
import type { DecisionUse } from '../use.js'

const EFFORTS = ['low', 'medium', 'high', 'max'] as const

/** Chooses the reasoning effort a turn's prompt needs. */
export const routeEffort: DecisionUse<'route'> = {
  feature: 'decisions_route',
  seam: 'route',
  summary: 'raises the reasoning effort of a turn whose prompt needs more (never lowers it)',
  async decide(input, ctx) {
    if (!input.reasoning) return undefined
    const answer = await askJson(
      ctx,
      this.feature,
      'How much reasoning effort does this coding request need? {"effort": "low" | "medium" | "high" | "max", "reason": "..."}.',
      { prompt: clip(input.prompt, 3_000) },
    )
    const effort = EFFORTS.find((candidate) => candidate === answer.effort)
    if (effort === undefined) return undefined
    return { effort, reason: text(answer.reason, 200) ?? 'chosen by the decision service' }
  },
  describe: (advice) => `effort ${advice.effort}: ${advice.reason}`,
}
