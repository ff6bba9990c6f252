import { askJson, clip, text } from '../ask-json.js'
import type { DecisionUse } from '../use.js'

/** At the stop boundary: reminds the model of a part of the request it left undone. */
export const stopReview: DecisionUse<'stopBoundary'> = {
  feature: 'decisions_stop_review',
  seam: 'stopBoundary',
  summary: 'continues the run once per turn when part of the request was left undone',
  async decide(input, ctx) {
    const answer = await askJson(
      ctx,
      this.feature,
      'The agent is about to end its turn with this answer. Did it leave part of the request undone (claimed but not done, a step skipped)? {"continue": true, "reminder": "what is left"} or {"continue": false}.',
      {
        request: clip(input.prompt, 3_000),
        finalAnswer: clip(input.finalText, 3_000),
        changedFiles: input.mutated,
      },
    )
    if (answer.continue !== true) return undefined
    const reminder = text(answer.reminder, 600)
    return reminder === undefined ? undefined : { reminder }
  },
  describe: (advice) => `continue: ${advice.reminder}`,
}
