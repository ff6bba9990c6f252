/**
 * `@google/genai` stream chunks → attempt events. Each chunk carries whole parts: text and thought
 * text arrive in pieces (merged into one block until another kind of part comes), a function call
 * arrives complete. A thought signature on a thought part stays on that thinking block; one on a
 * text or call part becomes an empty thinking block just before it, so request.ts puts it back on
 * the same part. Usage is cumulative; the last report wins.
 */
import { randomUUID } from 'node:crypto'
import type { GenerateContentResponse, GenerateContentResponseUsageMetadata, Part } from '@google/genai'
import type { Usage } from '@z-engine/protocol'
import { StreamProtocolError } from '../errors.js'
import type { AttemptEvent } from '../run-stream.js'
import type { StopReason } from '../types.js'
import { toGeminiSignature } from './signature.js'

type Open =
  | { kind: 'text'; index: number; text: string }
  | { kind: 'thinking'; index: number; thinking: string }

/** Translates one attempt's chunks. Ends with `finish` once the stream ends after a finish reason. */
export async function* geminiEvents(
  raw: AsyncIterable<GenerateContentResponse>,
): AsyncGenerator<AttemptEvent> {
  let open: Open | undefined
  let next = 0
  let finishReason: string | undefined
  let blocked: string | undefined

  const close = function* (): Generator<AttemptEvent> {
    if (open?.kind === 'text') yield { type: 'text_end', index: open.index, text: open.text }
    else if (open?.kind === 'thinking')
      yield { type: 'thinking_end', index: open.index, thinking: open.thinking }
    open = undefined
  }
  const signed = function* (signature: string, thinking = ''): Generator<AttemptEvent> {
    const index = next++
    yield { type: 'thinking_start', index }
    if (thinking !== '') yield { type: 'thinking_delta', index, thinking }
    yield { type: 'thinking_end', index, thinking, signature: toGeminiSignature(signature) }
  }

  for await (const chunk of raw) {
    if (chunk.usageMetadata) yield { type: 'usage', usage: usageOf(chunk.usageMetadata) }
    if (chunk.promptFeedback?.blockReason) blocked = String(chunk.promptFeedback.blockReason)
    const candidate = chunk.candidates?.[0]
    for (const part of candidate?.content?.parts ?? []) yield* onPart(part)
    if (candidate?.finishReason) finishReason = String(candidate.finishReason)
  }
  yield* close()
  if (finishReason === undefined && blocked === undefined)
    throw new StreamProtocolError('the Gemini stream ended without a finish reason')
  const provider = finishReason ?? `BLOCKED_${blocked}`
  yield {
    type: 'finish',
    stopReason: blocked !== undefined && finishReason === undefined ? 'refusal' : normalizeStop(provider),
    providerStopReason: provider,
  }

  function* onPart(part: Part): Generator<AttemptEvent> {
    const signature = part.thoughtSignature
    if (part.thought === true) {
      const text = part.text ?? ''
      if (open?.kind !== 'thinking') {
        yield* close()
        open = { kind: 'thinking', index: next++, thinking: '' }
        yield { type: 'thinking_start', index: open.index }
      }
      if (text !== '') {
        open.thinking += text
        yield { type: 'thinking_delta', index: open.index, thinking: text }
      }
      if (signature !== undefined) {
        // The signature closes this thought: it belongs to exactly the text seen so far.
        yield {
          type: 'thinking_end',
          index: open.index,
          thinking: open.thinking,
          signature: toGeminiSignature(signature),
        }
        open = undefined
      }
      return
    }
    if (part.functionCall) {
      yield* close()
      if (signature !== undefined) yield* signed(signature)
      const call = part.functionCall
      const id = call.id ?? `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`
      const name = call.name ?? ''
      const input = (call.args ?? {}) as Record<string, unknown>
      const argsText = JSON.stringify(input)
      const index = next++
      yield { type: 'tool_call_start', index, id, name }
      yield { type: 'tool_call_args_delta', index, argsText }
      yield { type: 'tool_call_end', index, id, name, input, argsText }
      return
    }
    if (typeof part.text === 'string') {
      if (signature !== undefined) {
        // A signed text part starts a new text block, so the signature goes back on the same text.
        yield* close()
        yield* signed(signature)
      }
      if (open?.kind !== 'text') {
        yield* close()
        open = { kind: 'text', index: next++, text: '' }
        yield { type: 'text_start', index: open.index }
      }
      if (part.text !== '') {
        open.text += part.text
        yield { type: 'text_delta', index: open.index, text: part.text }
      }
    }
    // Other parts (code execution, inline images) are not requested by the engine; they are ignored.
  }
}

/**
 * Gemini counts cached tokens inside the prompt count and thoughts apart from the answer: input is
 * the uncached prompt (tool-use prompt tokens included), output the answer plus thoughts (both are
 * billed as output). Implicit caching has no write charge, so cache writes are 0.
 */
export function usageOf(metadata: GenerateContentResponseUsageMetadata): Usage {
  const cached = metadata.cachedContentTokenCount ?? 0
  const prompt = (metadata.promptTokenCount ?? 0) + (metadata.toolUsePromptTokenCount ?? 0)
  return {
    inputTokens: Math.max(0, prompt - cached),
    outputTokens: (metadata.candidatesTokenCount ?? 0) + (metadata.thoughtsTokenCount ?? 0),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  }
}

function normalizeStop(reason: string): StopReason {
  switch (reason) {
    case 'STOP':
      return 'end_turn'
    case 'MAX_TOKENS':
      return 'max_tokens'
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
    case 'IMAGE_RECITATION':
      return 'refusal'
    default:
      return 'other'
  }
}
