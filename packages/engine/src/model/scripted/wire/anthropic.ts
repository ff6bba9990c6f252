/** A scripted response in Anthropic Messages wire format: SSE frames or one JSON message. */
import type { StopReason } from '../../types.js'
import { type ResolvedResponse, splitText } from '../script.js'
import { type EncodeOptions, sseFrame } from './sse.js'

function stopReasonOf(reason: StopReason): string {
  switch (reason) {
    case 'end_turn':
    case 'tool_use':
    case 'max_tokens':
    case 'stop_sequence':
    case 'refusal':
      return reason
    case 'other':
      return 'pause_turn'
    default: {
      const unreachable: never = reason
      return unreachable
    }
  }
}

/** The SSE frames of a streamed Messages response. */
export function anthropicFrames(response: ResolvedResponse, id: string, options: EncodeOptions): string[] {
  const textSize = options.textChunkSize ?? 16
  const argsSize = options.argsChunkSize ?? 7
  const { usage } = response
  const frames = [
    sseFrame('message_start', {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: options.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.inputTokens,
          cache_creation_input_tokens: usage.cacheWriteTokens,
          cache_read_input_tokens: usage.cacheReadTokens,
          output_tokens: 1,
        },
      },
    }),
    sseFrame('ping', { type: 'ping' }),
  ]
  const delta = (index: number, body: object): string =>
    sseFrame('content_block_delta', { type: 'content_block_delta', index, delta: body })
  const start = (index: number, block: object): string =>
    sseFrame('content_block_start', { type: 'content_block_start', index, content_block: block })
  for (const [index, block] of response.blocks.entries()) {
    switch (block.type) {
      case 'text':
        frames.push(start(index, { type: 'text', text: '' }))
        for (const piece of splitText(block.text, textSize))
          frames.push(delta(index, { type: 'text_delta', text: piece }))
        break
      case 'thinking':
        frames.push(start(index, { type: 'thinking', thinking: '', signature: '' }))
        for (const piece of splitText(block.thinking, textSize)) {
          frames.push(delta(index, { type: 'thinking_delta', thinking: piece }))
        }
        frames.push(delta(index, { type: 'signature_delta', signature: block.signature }))
        break
      case 'redacted_thinking':
        frames.push(start(index, { type: 'redacted_thinking', data: block.data }))
        break
      case 'tool_use':
        frames.push(start(index, { type: 'tool_use', id: block.id, name: block.name, input: {} }))
        for (const piece of splitText(block.argsText, argsSize)) {
          frames.push(delta(index, { type: 'input_json_delta', partial_json: piece }))
        }
        break
      default: {
        const unreachable: never = block
        throw new Error(`unknown block ${JSON.stringify(unreachable)}`)
      }
    }
    frames.push(sseFrame('content_block_stop', { type: 'content_block_stop', index }))
  }
  frames.push(
    sseFrame('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReasonOf(response.stopReason), stop_sequence: null },
      usage: { output_tokens: usage.outputTokens },
    }),
    sseFrame('message_stop', { type: 'message_stop' }),
  )
  return frames
}

/** The JSON body of a non-streamed Messages response. */
export function anthropicJson(response: ResolvedResponse, id: string, options: EncodeOptions): object {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: options.model,
    content: response.blocks.map((block) => {
      switch (block.type) {
        case 'text':
          return { type: 'text', text: block.text }
        case 'thinking':
          return { type: 'thinking', thinking: block.thinking, signature: block.signature }
        case 'redacted_thinking':
          return { type: 'redacted_thinking', data: block.data }
        case 'tool_use':
          return { type: 'tool_use', id: block.id, name: block.name, input: safeParse(block.argsText) }
        default: {
          const unreachable: never = block
          return unreachable
        }
      }
    }),
    stop_reason: stopReasonOf(response.stopReason),
    stop_sequence: null,
    usage: {
      input_tokens: response.usage.inputTokens,
      cache_creation_input_tokens: response.usage.cacheWriteTokens,
      cache_read_input_tokens: response.usage.cacheReadTokens,
      output_tokens: response.usage.outputTokens,
    },
  }
}

/** Parses scripted arguments for a JSON body; malformed text is kept as a string field. */
export function safeParse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return { _raw: text }
  }
}

/** Anthropic's error body. */
export function anthropicError(type: string, message: string): object {
  return { type: 'error', error: { type, message } }
}
