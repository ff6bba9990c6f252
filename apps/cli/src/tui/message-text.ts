import type { Message, MessageOrigin } from '@z-engine/protocol'

/** Whether a text block is a reminder the engine adds for the model (never shown as the user's words). */
export function isReminder(text: string): boolean {
  return text.trimStart().startsWith('<system-reminder>')
}

/** The plain text of a user message, or undefined when it holds none (tool results). */
export function userText(message: Message): string | undefined {
  if (message.role !== 'user') return undefined
  const parts: string[] = []
  for (const block of message.content)
    if (
      block.type === 'text' &&
      !isReminder(block.text) &&
      !(parts.length > 0 && (isCommandBody(block.text) || isAttachedFile(block.text)))
    )
      parts.push(block.text)
  return parts.length > 0 ? parts.join('\n') : undefined
}

/**
 * A file an `@path` mention attached to the prompt: for the model only, so the transcript (and a
 * rewind putting the message back) shows the mention as typed, not the file's text.
 */
export function isAttachedFile(text: string): boolean {
  return /^<file path="[^"\n]*">\n[\s\S]*\n<\/file>$/.test(text)
}

/**
 * The expanded template a prompt command sends after the `/name args` the user typed: for the
 * model only, so the transcript shows just what was typed (as Claude Code does).
 */
export function isCommandBody(text: string): boolean {
  return /^<command name="[^"]*">\n[\s\S]*<\/command>$/.test(text)
}

/** Whether a user message of this origin is one the user wrote (a prompt, a command, steering). */
export function isRewindable(origin: MessageOrigin | undefined): boolean {
  return origin === undefined || origin === 'prompt' || origin === 'command' || origin === 'steering'
}

/** Shortens a prompt to one line for a divider or a picker row. */
export function oneLine(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

/**
 * Splits streaming text after its last paragraph break outside a code fence: the part before can
 * no longer change. Returns `['', text]` when nothing is settled yet.
 */
export function splitSettled(text: string): [string, string] {
  let fenceOpen = false
  let splitAt = -1
  let offset = 0
  const lines = text.split('\n')
  for (const [index, line] of lines.entries()) {
    if (/^\s*```/.test(line)) fenceOpen = !fenceOpen
    else if (line.trim() === '' && !fenceOpen && index < lines.length - 1) splitAt = offset + line.length + 1
    offset += line.length + 1
  }
  if (splitAt < 0) return ['', text]
  const settled = text.slice(0, splitAt).trimEnd()
  return settled.trim() === '' ? ['', text] : [settled, text.slice(splitAt)]
}
