import type { EngineEvent, Message } from '@z-engine/protocol'
import { titleFromPrompt } from './title.js'

/** The title a user message would give the session: its first text block, as the first prompt's. */
function titleOf(message: Message): string | undefined {
  if (message.role !== 'user') return undefined
  const first = message.content.find((block) => block.type === 'text')
  return first?.type === 'text' ? titleFromPrompt(first.text) : undefined
}

/**
 * The session's title after a conversation rewind: a title taken from a prompt the rewind removed
 * (and no remaining message gives it) follows the first prompt still in the conversation, or is
 * cleared (`''`: the next prompt titles the session again). Undefined when the title stays: it was
 * set by hand, or its prompt is still there.
 */
export function titleAfterRewind(
  title: string | undefined,
  before: readonly Message[],
  after: readonly Message[],
  outcome: EngineEvent,
): string | undefined {
  if (title === undefined || title === '' || outcome.type !== 'rewound' || outcome.scope === 'code')
    return undefined
  const removed = new Set(outcome.removedMessageIds ?? [])
  const fromRemoved = before.some((message) => removed.has(message.id) && titleOf(message) === title)
  if (!fromRemoved || after.some((message) => titleOf(message) === title)) return undefined
  for (const message of after) {
    const next = titleOf(message)
    if (next !== undefined) return next
  }
  return ''
}
