import type { ContentBlock, Message, ToolResultBlock } from '@z-engine/protocol'

/** The text of a tool result synthesized for a call whose result never reached the log. */
export const INTERRUPTED_RESULT_TEXT =
  'interrupted: the session stopped before this tool call finished; its effects, if any, are unknown'

/**
 * Makes a working set valid for any provider: every assistant tool_use is answered by exactly one
 * tool_result in the next message, in call order. Missing results are synthesized as interrupted
 * errors (in the next user message, or a new one); duplicate and orphan results are dropped.
 * Returns the input array itself when nothing needed fixing.
 */
export function pairToolResults(messages: readonly Message[]): Message[] {
  if (isPaired(messages)) return messages as Message[]
  const out: Message[] = []
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!
    if (message.role === 'user') {
      // Reaching a user message here means no tool_use precedes it: results in it are orphans.
      const kept = message.content.filter((block) => block.type !== 'tool_result')
      if (kept.length > 0)
        out.push(kept.length === message.content.length ? message : { ...message, content: kept })
      continue
    }
    out.push(message)
    const calls = message.content.filter((block) => block.type === 'tool_use')
    if (calls.length === 0) continue
    const next = messages[index + 1]
    const answers = next?.role === 'user' ? next.content : []
    const results = new Map<string, ToolResultBlock>()
    for (const block of answers) {
      if (block.type === 'tool_result' && !results.has(block.toolUseId)) results.set(block.toolUseId, block)
    }
    const ordered: ContentBlock[] = calls.map((call) => results.get(call.id) ?? interruptedResult(call.id))
    const rest = answers.filter((block) => block.type !== 'tool_result')
    if (next?.role === 'user') {
      out.push({ ...next, content: [...ordered, ...rest] })
      index++
    } else {
      out.push({ id: `${message.id}:interrupted-results`, role: 'user', content: ordered })
    }
  }
  return out
}

function interruptedResult(toolUseId: string): ToolResultBlock {
  return {
    type: 'tool_result',
    toolUseId,
    content: [{ type: 'text', text: INTERRUPTED_RESULT_TEXT }],
    isError: true,
  }
}

// The common case (a log that ended cleanly) is checked without copying anything.
function isPaired(messages: readonly Message[]): boolean {
  let expected: string[] = []
  for (const message of messages) {
    const results = message.content.filter((block) => block.type === 'tool_result')
    if (message.role === 'user') {
      if (results.length !== expected.length) return false
      for (let i = 0; i < results.length; i++) {
        const result = results[i]!
        if (result.type !== 'tool_result' || result.toolUseId !== expected[i]) return false
      }
      // Results must lead the message so they sit right after the calls.
      for (let i = 0; i < results.length; i++) if (message.content[i]?.type !== 'tool_result') return false
      expected = []
    } else {
      if (expected.length > 0 || results.length > 0) return false
      expected = message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []))
    }
  }
  return expected.length === 0
}
