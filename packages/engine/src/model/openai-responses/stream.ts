/** Responses stream events → attempt events, one block per output item (or message content part). */
import type { Usage } from '@z-engine/protocol'
import type {
  Response,
  ResponseOutputItem,
  ResponseStreamEvent,
  ResponseUsage,
} from 'openai/resources/responses/responses'
import { StreamProtocolError } from '../errors.js'
import type { AttemptEvent } from '../run-stream.js'
import { parseToolArgs } from '../tool-args.js'
import type { StopReason } from '../types.js'

/** An error reported inside the stream (`error` or `response.failed`), classified like an HTTP error. */
export class ResponsesStreamError extends Error {
  override readonly name = 'ResponsesStreamError'
  constructor(
    message: string,
    readonly error: { code?: string | null; message: string },
  ) {
    super(message)
  }
}

/** Translates one attempt's events; `finish` comes from `response.completed` or `response.incomplete`. */
export async function* responsesEvents(
  events: AsyncIterable<ResponseStreamEvent>,
): AsyncGenerator<AttemptEvent> {
  const blocks = new Map<string, number>()
  let nextBlock = 0
  const blockFor = (key: string): { index: number; isNew: boolean } => {
    const known = blocks.get(key)
    if (known !== undefined) return { index: known, isNew: false }
    const index = nextBlock++
    blocks.set(key, index)
    return { index, isNew: true }
  }
  let sawToolCall = false
  let sawRefusal = false
  for await (const event of events) {
    switch (event.type) {
      case 'response.output_item.added': {
        const item = event.item
        if (item.type === 'reasoning') {
          yield { type: 'thinking_start', index: blockFor(`${event.output_index}`).index }
        } else if (item.type === 'function_call') {
          sawToolCall = true
          const { index } = blockFor(`${event.output_index}`)
          yield { type: 'tool_call_start', index, id: item.call_id, name: item.name }
        }
        break
      }
      case 'response.output_text.delta':
      case 'response.refusal.delta': {
        const { index, isNew } = blockFor(`${event.output_index}:${event.content_index}`)
        if (isNew) yield { type: 'text_start', index }
        yield { type: 'text_delta', index, text: event.delta }
        break
      }
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        yield {
          type: 'thinking_delta',
          index: blockFor(`${event.output_index}`).index,
          thinking: event.delta,
        }
        break
      case 'response.function_call_arguments.delta':
        yield {
          type: 'tool_call_args_delta',
          index: blockFor(`${event.output_index}`).index,
          argsText: event.delta,
        }
        break
      case 'response.output_item.done':
        for (const end of itemDone(event.item, event.output_index, blockFor)) {
          if (end.type === 'text_end' && sawRefusalIn(event.item)) sawRefusal = true
          yield end
        }
        break
      case 'response.completed':
      case 'response.incomplete':
        if (event.response.usage) yield { type: 'usage', usage: toUsage(event.response.usage) }
        yield finishOf(event.response, sawToolCall, sawRefusal)
        return
      case 'response.failed': {
        const error = event.response.error
        throw new ResponsesStreamError(error?.message ?? 'the response failed', {
          code: error?.code ?? null,
          message: error?.message ?? 'the response failed',
        })
      }
      case 'error':
        throw new ResponsesStreamError(event.message, { code: event.code, message: event.message })
      default:
        break
    }
  }
  throw new StreamProtocolError('the Responses stream ended before response.completed (connection dropped?)')
}

function sawRefusalIn(item: ResponseOutputItem): boolean {
  return item.type === 'message' && item.content.some((part) => part.type === 'refusal')
}

function itemDone(
  item: ResponseOutputItem,
  outputIndex: number,
  blockFor: (key: string) => { index: number; isNew: boolean },
): AttemptEvent[] {
  switch (item.type) {
    case 'message':
      return item.content.flatMap((part, contentIndex): AttemptEvent[] => {
        const { index, isNew } = blockFor(`${outputIndex}:${contentIndex}`)
        const text = part.type === 'output_text' ? part.text : part.refusal
        const start: AttemptEvent[] = isNew ? [{ type: 'text_start', index }] : []
        return [...start, { type: 'text_end', index, text }]
      })
    case 'reasoning': {
      const { index } = blockFor(`${outputIndex}`)
      const summary = item.summary.map((part) => part.text).join('\n\n')
      const full = (item.content ?? []).map((part) => part.text).join('')
      const end: AttemptEvent = { type: 'thinking_end', index, thinking: summary !== '' ? summary : full }
      if (item.encrypted_content) end.encrypted = { id: item.id, content: item.encrypted_content }
      return [end]
    }
    case 'function_call': {
      const { index } = blockFor(`${outputIndex}`)
      const parsed = parseToolArgs(item.arguments)
      return [
        parsed.ok
          ? {
              type: 'tool_call_end',
              index,
              id: item.call_id,
              name: item.name,
              input: parsed.input,
              argsText: item.arguments,
            }
          : {
              type: 'tool_call_end',
              index,
              id: item.call_id,
              name: item.name,
              input: {},
              argsText: item.arguments,
              parseError: parsed.message,
            },
      ]
    }
    default:
      // Built-in tool items (web search, code interpreter…) are never requested by the engine.
      return []
  }
}

function finishOf(response: Response, sawToolCall: boolean, sawRefusal: boolean): AttemptEvent {
  const reason = response.incomplete_details?.reason
  let stopReason: StopReason
  if (response.status === 'incomplete') {
    stopReason =
      reason === 'max_output_tokens' ? 'max_tokens' : reason === 'content_filter' ? 'refusal' : 'other'
  } else if (sawToolCall) {
    stopReason = 'tool_use'
  } else if (sawRefusal) {
    stopReason = 'refusal'
  } else {
    stopReason = 'end_turn'
  }
  return { type: 'finish', stopReason, providerStopReason: reason ?? response.status ?? 'completed' }
}

/** Responses usage → neutral usage; `input_tokens` includes cached tokens, so they are taken out. */
export function toUsage(usage: ResponseUsage): Usage {
  const cached = usage.input_tokens_details?.cached_tokens ?? 0
  return {
    inputTokens: Math.max(0, usage.input_tokens - cached),
    outputTokens: usage.output_tokens,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  }
}
