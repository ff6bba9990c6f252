import { askJson, clip, text } from '../ask-json.js'
import type { DecisionUse } from '../use.js'

/** Suggests the user's likely next prompt; accepting it starts that turn. */
export const nextStep: DecisionUse<'turnEnd'> = {
  feature: 'decisions_next_step',
  seam: 'turnEnd',
  summary: 'suggests a next prompt the user may accept (resolveSuggestion starts it)',
  async decide(input, ctx) {
    const answer = await askJson(
      ctx,
      this.feature,
      'A turn ended. Suggest the one prompt the user most likely sends next, written as the user would: {"suggestion": "..."}. Nothing obvious: {}.',
      { prompt: clip(input.prompt, 2_000), finalAnswer: clip(input.finalText, 3_000) },
    )
    const suggestion = text(answer.suggestion, 300)
    return suggestion === undefined ? undefined : { suggestion }
  },
  describe: (advice) => `suggest "${(advice.suggestion ?? '').slice(0, 80)}"`,
}
