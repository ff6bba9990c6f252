import type { ContentBlock, Message } from '@z-engine/protocol'

/** Options of {@link renderTranscript}. */
export interface TranscriptOptions {
  /** Each block's text is cut to this many characters (default 4,000). */
  maxBlockChars?: number
  /** The whole transcript is cut to this many characters, keeping its start and end (default 400,000). */
  maxChars?: number
}

/**
 * Renders messages as plain text for the fast model to summarize. Long blocks are shortened in the
 * middle; a transcript over `maxChars` loses its middle, since the start (earlier summaries, the
 * task) and the end (the latest state) matter most.
 */
export function renderTranscript(messages: readonly Message[], options: TranscriptOptions = {}): string {
  const maxBlockChars = options.maxBlockChars ?? 4_000
  const maxChars = options.maxChars ?? 400_000
  const lines: string[] = []
  for (const message of messages) {
    for (const block of message.content) {
      const line = renderBlock(message.role, block, maxBlockChars)
      if (line !== null) lines.push(line)
    }
  }
  return shorten(lines.join('\n\n'), maxChars)
}

function renderBlock(role: Message['role'], block: ContentBlock, maxChars: number): string | null {
  switch (block.type) {
    case 'text':
      return `[${role}] ${shorten(block.text, maxChars)}`
    case 'image':
      return `[${role}] [image]`
    case 'thinking':
    case 'redacted_thinking':
      // Reasoning is not summarized: it is long, and its conclusions show in what follows.
      return null
    case 'tool_use':
      return `[tool call ${block.name} ${block.id}] ${shorten(JSON.stringify(block.input), maxChars)}`
    case 'tool_result': {
      const text = block.content.map((part) => (part.type === 'text' ? part.text : '[image]')).join('\n')
      return `[tool result ${block.toolUseId}${block.isError ? ' error' : ''}] ${shorten(text, maxChars)}`
    }
    default: {
      const unhandled: never = block
      throw new Error(`unhandled content block: ${JSON.stringify(unhandled)}`)
    }
  }
}

function shorten(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  const half = Math.floor(maxChars / 2)
  return `${text.slice(0, half)}\n[… ${text.length - 2 * half} characters omitted …]\n${text.slice(text.length - half)}`
}

/** The summarizer's prompt: the compaction instructions, then the transcript to summarize. */
export function buildSummaryPrompt(instructions: string, transcript: string): string {
  return `${instructions.trim()}\n\n<transcript>\n${transcript}\n</transcript>`
}
