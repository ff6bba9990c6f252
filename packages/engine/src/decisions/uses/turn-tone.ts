import { askJson, clip } from '../ask-json.js'
import type { DecisionUse } from '../use.js'

const TONES = ['positive', 'neutral', 'frustrated', 'confused'] as const

/** Judges the user's tone in a turn (in the background, after it ended). */
export const turnTone: DecisionUse<'turnEnd'> = {
  feature: 'decisions_turn_tone',
  seam: 'turnEnd',
  summary: "judges the user's tone in a finished turn",
  async decide(input, ctx) {
    const answer = await askJson(
      ctx,
      this.feature,
      'What is the tone of the user in this prompt? {"tone": "positive" | "neutral" | "frustrated" | "confused"}.',
      { prompt: clip(input.prompt, 2_000) },
    )
    const tone = TONES.find((candidate) => candidate === answer.tone)
    return tone === undefined ? undefined : { tone }
  },
  describe: (advice) => `tone ${advice.tone ?? 'unknown'}`,
}
