import type { Message } from '@z-engine/protocol'
import type { InteractionPort } from '@z-engine/tools'
import type { DecisionHub } from '../hub.js'

/** The text of the user's own messages (prompts and steering, not tool results or reminders). */
function userTexts(messages: readonly Message[]): string[] {
  return messages
    .filter((message) => message.role === 'user')
    .flatMap((message) => message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])))
    .filter((text) => !text.startsWith('<system-reminder>'))
}

/**
 * Ask user: an AskUserQuestion the user already answered gets that answer as its tool result
 * instead of asking again — only when the advice quotes the user word for word; otherwise the
 * question is asked as usual.
 */
export function answeringFromHistory(
  port: InteractionPort,
  hub: DecisionHub | undefined,
  history: () => readonly Message[],
): InteractionPort {
  if (!hub?.joins('askUser')) return port
  return {
    ...port,
    ask: async (questions, signal) => {
      const userMessages = userTexts(history())
      const advice = await hub.consult(
        'askUser',
        { questions: questions.map((question) => question.question), userMessages },
        signal,
      )
      const backed = advice.find(
        (one) =>
          one.answers.length === questions.length && userMessages.some((text) => text.includes(one.quote)),
      )
      if (backed === undefined) return port.ask(questions, signal)
      return backed.answers.map((answer) => [`${answer} (from your earlier message: "${backed.quote}")`])
    },
  }
}
