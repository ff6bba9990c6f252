/**
 * The one mapping of a tool choice onto the OpenAI wires: the engine's Responses and Chat clients
 * and the gateway's Messages translation all spell `any` as `required` and a named tool as a function.
 */
import type { ToolChoice } from '@z-engine/protocol'

/** A tool choice as the Responses API spells it. */
export type ResponsesToolChoice = 'auto' | 'required' | 'none' | { type: 'function'; name: string }

/** A tool choice as Chat Completions spells it. */
export type ChatToolChoice = 'auto' | 'required' | 'none' | { type: 'function'; function: { name: string } }

/** The Responses spelling of a tool choice. */
export function responsesToolChoice(choice: ToolChoice): ResponsesToolChoice {
  switch (choice.type) {
    case 'auto':
      return 'auto'
    case 'any':
      return 'required'
    case 'none':
      return 'none'
    case 'tool':
      return { type: 'function', name: choice.name }
    default: {
      const unreachable: never = choice
      return unreachable
    }
  }
}

/** The Chat Completions spelling of a tool choice. */
export function chatToolChoice(choice: ToolChoice): ChatToolChoice {
  const responses = responsesToolChoice(choice)
  return typeof responses === 'string' ? responses : { type: 'function', function: { name: responses.name } }
}
