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
// The result texts the engine's batch writes for a call it refused without asking anyone: a deny
// rule or plan mode (`Permission denied: …`), a PermissionRequest hook, a PreToolUse hook's block
// or stop (issue 39: a resumed chat shows them as denied, not as errors).
const REFUSED =
  /^(Permission denied\b|Blocked by a PreToolUse hook: |Not run: a (PreToolUse|PermissionRequest) hook stopped the turn)/

/** A tool call's display status from its result (and whether its approval was denied). */
export function toolStatusOf(
  isError: boolean,
  content: readonly ToolResultContent[],
  denied: boolean,
): DisplayToolStatus {
  if (!isError) return 'ok'
  const first = content[0]
  const text = first !== undefined && first.type === 'text' ? first.text : ''
  // A turn interrupted while the call's approval waited journals a deny, but the call was cancelled.
  if (CANCELLED.test(text)) return 'cancelled'
  if (denied || REFUSED.test(text)) return 'denied'
  return 'error'
}

/** Why a call was refused without asking anyone (its result text), or undefined. */
export function refusalOf(isError: boolean, content: readonly ToolResultContent[]): string | undefined {
  const first = content[0]
  return isError && first !== undefined && first.type === 'text' && REFUSED.test(first.text)
    ? first.text
    : undefined
}
