import { askJson, clip, text, texts } from '../ask-json.js'
import type { DecisionUse } from '../use.js'

/** Answers a question the user already answered, quoting them, instead of asking again. */
export const answerFromHistory: DecisionUse<'askUser'> = {
  feature: 'decisions_answer_from_history',
  seam: 'askUser',
  summary: 'answers a question the user already answered (quoting them) instead of asking again',
  async decide(input, ctx) {
    if (input.userMessages.length === 0) return undefined
    const answer = await askJson(
      ctx,
      this.feature,
      `The agent wants to ask the user these questions. If the user's own messages already answer every one of them, give one answer per question in order and quote the user's exact words: {"answers": ["..."], "quote": "..."}. Otherwise: {}.`,
      { questions: input.questions, userMessages: input.userMessages.slice(-20).map((m) => clip(m, 1_500)) },
    )
    const answers = texts(answer.answers, input.questions.length, 500)
    const quote = text(answer.quote, 1_000)
    if (quote === undefined || answers.length !== input.questions.length) return undefined
    return { answers, quote }
  },
  describe: (advice) => `answered from "${advice.quote.slice(0, 80)}"`,
}
