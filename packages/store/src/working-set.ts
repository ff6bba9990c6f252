import type { Message, TaskView, ToolResultContent } from '@z-engine/protocol'
import type { DisplayToolStatus } from './snapshot.js'

/**
 * The working set after a summary compaction: the summary, then everything from the first kept
 * message on. `found` is false when that message is unknown (then only the summary is kept).
 */
export function compactedWorkingSet(
  messages: readonly Message[],
  summary: Message,
  firstKeptMessageId: string,
): { messages: Message[]; found: boolean } {
  const index = messages.findIndex((message) => message.id === firstKeptMessageId)
  return index === -1
    ? { messages: [summary], found: false }
    : { messages: [summary, ...messages.slice(index)], found: true }
}

/** The working set a task view keeps: its index message, then the kept messages in its order. */
export function taskViewWorkingSet(
  messages: readonly Message[],
  view: TaskView,
): { messages: Message[]; missing: string[] } {
  const byId = new Map(messages.map((message) => [message.id, message]))
  const kept: Message[] = view.indexMessage !== undefined ? [view.indexMessage] : []
  const missing: string[] = []
  for (const id of view.keptMessageIds) {
    const message = byId.get(id)
    if (message !== undefined) kept.push(message)
    else missing.push(id)
  }
  return { messages: kept, missing }
}

// Matches the result text the engine writes for a call cancelled by the user (spec 000).
const CANCELLED = /^cancelled by user/i

/** A tool call's display status from its result (and whether its approval was denied). */
export function toolStatusOf(
  isError: boolean,
  content: readonly ToolResultContent[],
  denied: boolean,
): DisplayToolStatus {
  if (!isError) return 'ok'
  if (denied) return 'denied'
  const first = content[0]
  return first !== undefined && first.type === 'text' && CANCELLED.test(first.text) ? 'cancelled' : 'error'
}
