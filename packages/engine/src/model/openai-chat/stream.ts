/** Chat Completions chunks → attempt events. Tool calls are assembled by their `index`, interleaved or not. */
import type { Usage } from '@z-engine/protocol'
import { StreamProtocolError } from '../errors.js'
import type { AttemptEvent } from '../run-stream.js'
import { parseToolArgs } from '../tool-args.js'
import type { StopReason } from '../types.js'

/** The parts of a chunk we read; compatible servers add fields (`reasoning_content`, `reasoning`). */
export interface ChatChunk {
  choices?: Array<{
    index?: number
    delta?: {
      content?: string | null
      reasoning_content?: string | null
      reasoning?: string | null
      refusal?: string | null
      tool_calls?: Array<{
        index?: number
        id?: string | null
        function?: { name?: string | null; arguments?: string | null }
      }> | null
    } | null
    finish_reason?: string | null
  }>
  usage?: ChatUsage | null
}

/** Usage as OpenAI, OpenRouter and DeepSeek report it. */
export interface ChatUsage {
  prompt_tokens?: number
  completion_tokens?: number
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null
  prompt_cache_hit_tokens?: number
}

interface ToolSlot {
  block: number
  id: string
  name: string
  args: string
  started: boolean
}

/** Translates one attempt's chunks. Emits `finish` after the stream ends, once a finish_reason was seen. */
export async function* chatEvents(chunks: AsyncIterable<ChatChunk>): AsyncGenerator<AttemptEvent> {
  let nextBlock = 0
  let thinking: { block: number; text: string } | undefined
  let text: { block: number; text: string } | undefined
  const tools = new Map<number, ToolSlot>()
  let finishReason: string | undefined
  for await (const chunk of chunks) {
    if (chunk.usage) yield { type: 'usage', usage: toUsage(chunk.usage) }
    const choice = chunk.choices?.[0]
    if (!choice) continue
    const delta = choice.delta ?? {}
    const reasoning = delta.reasoning_content ?? delta.reasoning
    if (typeof reasoning === 'string' && reasoning !== '') {
      if (!thinking) {
        thinking = { block: nextBlock++, text: '' }
        yield { type: 'thinking_start', index: thinking.block }
      }
      thinking.text += reasoning
      yield { type: 'thinking_delta', index: thinking.block, thinking: reasoning }
    }
    const content = (delta.content ?? '') + (delta.refusal ?? '')
    if (content !== '') {
      if (!text) {
        text = { block: nextBlock++, text: '' }
        yield { type: 'text_start', index: text.block }
      }
      text.text += content
      yield { type: 'text_delta', index: text.block, text: content }
    }
    for (const call of delta.tool_calls ?? []) {
      const key = call.index ?? tools.size
      let slot = tools.get(key)
      if (!slot) {
        slot = { block: nextBlock++, id: '', name: '', args: '', started: false }
        tools.set(key, slot)
      }
      if (call.id) slot.id = call.id
      if (call.function?.name) slot.name += call.function.name
      if (!slot.started && slot.name !== '') {
        slot.started = true
        slot.id ||= `call_${key}`
        yield { type: 'tool_call_start', index: slot.block, id: slot.id, name: slot.name }
      }
      const args = call.function?.arguments ?? ''
      if (args !== '') {
        slot.args += args
        if (slot.started) yield { type: 'tool_call_args_delta', index: slot.block, argsText: args }
      }
    }
    if (choice.finish_reason) finishReason = choice.finish_reason
  }
  if (finishReason === undefined) {
    throw new StreamProtocolError(
      'the Chat Completions stream ended without a finish_reason (connection dropped?)',
    )
  }
  if (thinking) yield { type: 'thinking_end', index: thinking.block, thinking: thinking.text }
  if (text) yield { type: 'text_end', index: text.block, text: text.text }
  for (const [key, slot] of tools) {
    const id = slot.id || `call_${key}`
    const parsed = parseToolArgs(slot.args)
    yield parsed.ok
      ? {
          type: 'tool_call_end',
          index: slot.block,
          id,
          name: slot.name,
          input: parsed.input,
          argsText: slot.args,
        }
      : {
          type: 'tool_call_end',
          index: slot.block,
          id,
          name: slot.name,
          input: {},
          argsText: slot.args,
          parseError: parsed.message,
        }
  }
  yield { type: 'finish', stopReason: normalizeFinish(finishReason), providerStopReason: finishReason }
}

/** Chat usage → neutral usage; `prompt_tokens` includes cached tokens, so they are taken out of input. */
export function toUsage(usage: ChatUsage): Usage {
  const cacheRead = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? 0
  const cacheWrite = usage.prompt_tokens_details?.cache_write_tokens ?? 0
  return {
    inputTokens: Math.max(0, (usage.prompt_tokens ?? 0) - cacheRead - cacheWrite),
    outputTokens: usage.completion_tokens ?? 0,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
  }
}

function normalizeFinish(reason: string): StopReason {
  switch (reason) {
    case 'stop':
    case 'end_turn':
      return 'end_turn'
    case 'tool_calls':
    case 'function_call':
    case 'tool_use':
      return 'tool_use'
    case 'length':
    case 'max_tokens':
      return 'max_tokens'
    case 'content_filter':
    case 'refusal':
      return 'refusal'
    case 'stop_sequence':
      return 'stop_sequence'
    default:
      return 'other'
  }
}
