import type { Message } from '@z-engine/protocol'
import type { InteractionPort } from '@z-engine/tools'
import type { RoundModel } from '../../model/types.js'
import type { CredentialAnswer } from './before-request.js'

const WITHHOLD = 'Withhold them'
const SEND = 'Send them'

/** Asks the user once about flagged values; a dismissed question withholds them (fail closed). */
export async function askAboutCredentials(
  port: InteractionPort,
  values: readonly string[],
  signal: AbortSignal,
): Promise<CredentialAnswer> {
  const shown = values.map((value) => `\`${value.slice(0, 4)}…\` (${value.length} characters)`).join(', ')
  const answers = await port.ask(
    [
      {
        question: `New tool output contains what look like credentials: ${shown}. Send them to the model?`,
        header: 'Credentials',
        options: [
          { label: WITHHOLD, description: 'The model sees [WITHHELD:n] instead, now and in later requests.' },
          { label: SEND, description: 'The model sees the values as they are.' },
        ],
        multiSelect: false,
      },
    ],
    signal,
  )
  return answers?.[0]?.includes(SEND) === true && answers[0].length === 1 ? 'send' : 'withhold'
}

/** Tool names by tool_use id, from the assistant messages of a working set. */
export function toolNamesOf(messages: readonly Message[]): Map<string, string> {
  const names = new Map<string, string>()
  for (const message of messages) {
    if (message.role !== 'assistant') continue
    for (const block of message.content) if (block.type === 'tool_use') names.set(block.id, block.name)
  }
  return names
}

/** A round's model with the turn's routed effort (only when the model reasons at all). */
export function withEffort(
  model: RoundModel,
  effort: 'low' | 'medium' | 'high' | 'max' | undefined,
): RoundModel {
  if (effort === undefined || model.reasoning === undefined) return model
  return { ...model, reasoning: { ...model.reasoning, effort: effort === 'max' ? 'high' : effort } }
}
