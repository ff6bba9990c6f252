/** Anthropic raw stream events → attempt events (blocks by their wire index). */
import type {
  StopReason as AnthropicStopReason,
  Usage as AnthropicUsage,
  MessageDeltaUsage,
  RawMessageStreamEvent,
} from '@anthropic-ai/sdk/resources/messages'
import type { Usage } from '@z-engine/protocol'
import type { AttemptEvent } from '../run-stream.js'
import { parseToolArgs } from '../tool-args.js'
import type { StopReason } from '../types.js'

type OpenBlock =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'tool'; id: string; name: string; args: string; initialInput: unknown }
  | { kind: 'other' }

/** Translates one attempt's raw events. Ends with `finish` only after `message_stop`. */
export async function* anthropicEvents(
  raw: AsyncIterable<RawMessageStreamEvent>,
): AsyncGenerator<AttemptEvent> {
  const open = new Map<number, OpenBlock>()
  let usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }
  let stopReason: AnthropicStopReason | null = null
  for await (const event of raw) {
    switch (event.type) {
      case 'message_start':
        usage = mergeUsage(usage, event.message.usage)
        yield { type: 'usage', usage }
        break
      case 'content_block_start': {
        const block = event.content_block
        const index = event.index
        if (block.type === 'text') {
          open.set(index, { kind: 'text', text: block.text })
          yield { type: 'text_start', index }
          if (block.text) yield { type: 'text_delta', index, text: block.text }
        } else if (block.type === 'thinking') {
          open.set(index, { kind: 'thinking', thinking: block.thinking, signature: block.signature })
          yield { type: 'thinking_start', index }
        } else if (block.type === 'redacted_thinking') {
          open.set(index, { kind: 'other' })
          yield { type: 'redacted_thinking', index, data: block.data }
        } else if (block.type === 'tool_use') {
          open.set(index, {
            kind: 'tool',
            id: block.id,
            name: block.name,
            args: '',
            initialInput: block.input,
          })
          yield { type: 'tool_call_start', index, id: block.id, name: block.name }
        } else {
          // Server tools (web search…) are not requested by the engine; their blocks are ignored.
          open.set(index, { kind: 'other' })
        }
        break
      }
      case 'content_block_delta': {
        const block = open.get(event.index)
        const delta = event.delta
        if (block?.kind === 'text' && delta.type === 'text_delta') {
          block.text += delta.text
          yield { type: 'text_delta', index: event.index, text: delta.text }
        } else if (block?.kind === 'thinking' && delta.type === 'thinking_delta') {
          block.thinking += delta.thinking
          yield { type: 'thinking_delta', index: event.index, thinking: delta.thinking }
        } else if (block?.kind === 'thinking' && delta.type === 'signature_delta') {
          block.signature += delta.signature
        } else if (block?.kind === 'tool' && delta.type === 'input_json_delta') {
          block.args += delta.partial_json
          yield { type: 'tool_call_args_delta', index: event.index, argsText: delta.partial_json }
        }
        break
      }
      case 'content_block_stop': {
        const block = open.get(event.index)
        open.delete(event.index)
        if (block === undefined) break
        yield* closeBlock(event.index, block)
        break
      }
      case 'message_delta':
        stopReason = event.delta.stop_reason ?? stopReason
        usage = mergeUsage(usage, event.usage)
        yield { type: 'usage', usage }
        break
      case 'message_stop':
        yield {
          type: 'finish',
          stopReason: normalizeStop(stopReason),
          providerStopReason: stopReason ?? 'none',
        }
        return
      default:
        break
    }
  }
}

function* closeBlock(index: number, block: OpenBlock): Generator<AttemptEvent> {
  switch (block.kind) {
    case 'text':
      yield { type: 'text_end', index, text: block.text }
      return
    case 'thinking': {
      const end: AttemptEvent = { type: 'thinking_end', index, thinking: block.thinking }
      if (block.signature !== '') end.signature = block.signature
      yield end
      return
    }
    case 'tool': {
      const initial = block.initialInput
      const argsText =
        block.args === '' &&
        typeof initial === 'object' &&
        initial !== null &&
        Object.keys(initial).length > 0
          ? JSON.stringify(initial)
          : block.args
      const parsed = parseToolArgs(argsText)
      yield parsed.ok
        ? { type: 'tool_call_end', index, id: block.id, name: block.name, input: parsed.input, argsText }
        : {
            type: 'tool_call_end',
            index,
            id: block.id,
            name: block.name,
            input: {},
            argsText,
            parseError: parsed.message,
          }
      return
    }
    case 'other':
      return
    default: {
      const unreachable: never = block
      return unreachable
    }
  }
}

/** Folds Anthropic usage in: message_start gives input and cache counts, message_delta cumulative output. */
function mergeUsage(previous: Usage, wire: AnthropicUsage | MessageDeltaUsage): Usage {
  return {
    inputTokens: wire.input_tokens ?? previous.inputTokens,
    outputTokens: wire.output_tokens ?? previous.outputTokens,
    cacheReadTokens: wire.cache_read_input_tokens ?? previous.cacheReadTokens,
    cacheWriteTokens: wire.cache_creation_input_tokens ?? previous.cacheWriteTokens,
  }
}

function normalizeStop(reason: AnthropicStopReason | null): StopReason {
  switch (reason) {
    case 'end_turn':
      return 'end_turn'
    case 'tool_use':
      return 'tool_use'
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'max_tokens'
    case 'stop_sequence':
      return 'stop_sequence'
    case 'refusal':
      return 'refusal'
    case 'pause_turn':
    case null:
      return 'other'
    default: {
      const unreachable: never = reason
      return unreachable
    }
  }
}
