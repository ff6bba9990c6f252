import type { ContentBlock } from '@z-engine/protocol'
import type { LineTable } from './stream-json-lines.js'
import type { StreamJsonEvent } from './stream-json-types.js'

function textOf(blocks: ReadonlyArray<ContentBlock | { type: string; text?: string }>): string {
  return blocks.map((block) => (block.type === 'text' && 'text' in block ? (block.text ?? '') : '')).join('')
}

/**
 * Tool calls and their results. A call's `toolFinished` is held until its result message, whose
 * `tool_result` line carries both; the main agent's assistant text is kept for `final`.
 */
export const TOOL_LINES = {
  toolStarted: (event, { common }) => [
    {
      type: 'tool_call',
      ...common,
      tool_use_id: event.toolUseId,
      name: event.toolName,
      title: event.title,
      input: event.input as Record<string, unknown>,
    },
  ],
  toolFinished: (event, { common, state }) => {
    state.finished.set(event.toolUseId, {
      name: event.toolName,
      status: event.status,
      durationMs: event.durationMs,
      ...(event.summary !== undefined ? { summary: event.summary } : {}),
    })
    // A call denied without asking (a deny rule, plan mode, a hook): the gate's own decision.
    if (event.status !== 'denied' || state.asked.has(event.toolUseId)) return []
    return [
      {
        type: 'permission',
        ...common,
        tool_use_id: event.toolUseId,
        tool_name: event.toolName,
        decision: 'deny',
        reason: (event.output ?? event.summary ?? 'denied').replace(/^Permission denied: /, ''),
      },
    ]
  },
  messageRecorded: (event, { common, agentId, state }) => {
    const message = event.message
    if (message.role === 'assistant') {
      const text = textOf(message.content)
      if (agentId === undefined && text !== '') state.lastAssistantText = text
      return []
    }
    const lines: StreamJsonEvent[] = []
    for (const block of message.content) {
      if (block.type !== 'tool_result') continue
      const call = state.finished.get(block.toolUseId)
      state.finished.delete(block.toolUseId)
      lines.push({
        type: 'tool_result',
        ...common,
        tool_use_id: block.toolUseId,
        name: call?.name ?? '',
        status: call?.status ?? (block.isError ? 'error' : 'ok'),
        duration_ms: call?.durationMs ?? 0,
        is_error: block.isError,
        // Each part on its own line, as the model reads them (diagnostics after an edit's snippet).
        output: block.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n'),
        ...(call?.summary !== undefined ? { summary: call.summary } : {}),
      })
    }
    return lines
  },
} satisfies Partial<LineTable>
