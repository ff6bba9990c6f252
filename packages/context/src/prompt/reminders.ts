import type { Message } from '@z-engine/protocol'

const OPEN = '<system-reminder>'

/** Wraps text as a `<system-reminder>` note (already wrapped text is left as it is). */
export function wrapSystemReminder(text: string): string {
  const trimmed = text.trim()
  return trimmed.startsWith(OPEN) ? trimmed : `${OPEN}\n${trimmed}\n</system-reminder>`
}

/**
 * Appends reminders as text blocks to the last user message, returning new messages (the input is
 * not changed). Changing information travels this way so everything before it stays byte-stable.
 * Keep the result as the working set: the next request must resend the same reminder text in the
 * same place, or that message stops matching the cached prefix. With no user message, or no
 * reminders, the messages come back unchanged.
 */
export function appendReminders(messages: readonly Message[], reminders: readonly string[]): Message[] {
  const result = messages.slice()
  if (reminders.length === 0) return result
  for (let i = result.length - 1; i >= 0; i--) {
    const message = result[i]
    if (message?.role !== 'user') continue
    result[i] = {
      ...message,
      content: [
        ...message.content,
        ...reminders.map((text) => ({ type: 'text' as const, text: wrapSystemReminder(text) })),
      ],
    }
    return result
  }
  return result
}
