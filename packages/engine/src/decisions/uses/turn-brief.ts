import { askJson, clip, texts } from '../ask-json.js'
import type { DecisionUse } from '../use.js'

/** Reminds the model of what the user said earlier that bears on the new prompt. */
export const turnBrief: DecisionUse<'turnStart'> = {
  feature: 'decisions_turn_brief',
  seam: 'turnStart',
  summary: 'reminders of earlier instructions that apply to the new prompt',
  async decide(input, ctx) {
    const earlier = input.history
      .filter((message) => message.role === 'user')
      .flatMap((message) => message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])))
      .filter((text) => !text.startsWith('<system-reminder>'))
      .slice(-20)
      .map((text) => clip(text, 600))
    if (earlier.length === 0) return undefined
    const answer = await askJson(
      ctx,
      this.feature,
      'A new prompt starts a turn. List at most 3 short reminders of constraints or decisions the user stated in earlier messages that apply to it: {"reminders": ["..."]}. None: {"reminders": []}.',
      { prompt: clip(input.prompt, 2_000), earlierUserMessages: earlier },
    )
    const reminders = texts(answer.reminders, 3)
    return reminders.length === 0 ? undefined : { kind: 'reminders', reminders }
  },
  describe: (advice) =>
    advice.kind === 'reminders' ? `${advice.reminders.length} reminder(s)` : 'a task view',
}
