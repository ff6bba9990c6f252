/** A scripted response in Chat Completions wire format: chunk frames ending in `[DONE]`, or one JSON body. */
import type { StopReason } from '../../types.js'
import { type ResolvedResponse, splitText } from '../script.js'
import { type EncodeOptions, sseFrame } from './sse.js'

/** Chat-specific encoding options. */
export interface ChatEncodeOptions extends EncodeOptions {
  /** Interleave the argument chunks of parallel tool calls (some servers do); default false. */
  interleaveToolCalls?: boolean
  /** Field for reasoning deltas: `reasoning_content` (vLLM, DeepSeek; default) or `reasoning` (OpenRouter, Ollama). */
  reasoningField?: 'reasoning_content' | 'reasoning'
}

function finishReasonOf(reason: StopReason): string {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop'
    case 'tool_use':
      return 'tool_calls'
    case 'max_tokens':
      return 'length'
    case 'refusal':
      return 'content_filter'
    case 'other':
      return 'other'
    default: {
      const unreachable: never = reason
      return unreachable
    }
  }
}

function usageOf(response: ResolvedResponse): object {
  const { usage } = response
  const prompt = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens
  const details: Record<string, number> = { cached_tokens: usage.cacheReadTokens }
  if (usage.cacheWriteTokens > 0) details.cache_write_tokens = usage.cacheWriteTokens
  return {
    prompt_tokens: prompt,
    completion_tokens: usage.outputTokens,
    total_tokens: prompt + usage.outputTokens,
    prompt_tokens_details: details,
  }
}

/** The SSE frames of a streamed Chat Completions response (usage chunk included, then `[DONE]`). */
export function chatFrames(response: ResolvedResponse, id: string, options: ChatEncodeOptions): string[] {
  const textSize = options.textChunkSize ?? 16
  const argsSize = options.argsChunkSize ?? 7
  const reasoningField = options.reasoningField ?? 'reasoning_content'
  const chunk = (delta: object, finishReason: string | null = null): string =>
    sseFrame(undefined, {
      id,
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: options.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    })
  const frames = [chunk({ role: 'assistant', content: '' })]
  const toolFrames: string[][] = []
  let toolIndex = 0
  for (const block of response.blocks) {
    switch (block.type) {
      case 'text':
        for (const piece of splitText(block.text, textSize)) frames.push(chunk({ content: piece }))
        break
      case 'thinking':
        for (const piece of splitText(block.thinking, textSize))
          frames.push(chunk({ [reasoningField]: piece }))
        break
      case 'redacted_thinking':
        break
      case 'tool_use': {
        const index = toolIndex++
        const pieces = [
          chunk({
            tool_calls: [
              { index, id: block.id, type: 'function', function: { name: block.name, arguments: '' } },
            ],
          }),
          ...splitText(block.argsText, argsSize).map((piece) =>
            chunk({ tool_calls: [{ index, function: { arguments: piece } }] }),
          ),
        ]
        toolFrames.push(pieces)
        break
      }
      default: {
        const unreachable: never = block
        return unreachable
      }
    }
  }
  if (options.interleaveToolCalls) {
    const longest = Math.max(0, ...toolFrames.map((list) => list.length))
    for (let step = 0; step < longest; step++) {
      for (const list of toolFrames) if (list[step] !== undefined) frames.push(list[step] as string)
    }
  } else {
    for (const list of toolFrames) frames.push(...list)
  }
  frames.push(chunk({}, finishReasonOf(response.stopReason)))
  frames.push(
    sseFrame(undefined, {
      id,
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: options.model,
      choices: [],
      usage: usageOf(response),
    }),
  )
  frames.push(sseFrame(undefined, '[DONE]'))
  return frames
}

/** The JSON body of a non-streamed Chat Completions response. */
export function chatJson(response: ResolvedResponse, id: string, options: EncodeOptions): object {
  const text = response.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('')
  const reasoning = response.blocks
    .flatMap((block) => (block.type === 'thinking' ? [block.thinking] : []))
    .join('')
  const calls = response.blocks.flatMap((block) =>
    block.type === 'tool_use'
      ? [{ id: block.id, type: 'function', function: { name: block.name, arguments: block.argsText } }]
      : [],
  )
  const message: Record<string, unknown> = { role: 'assistant', content: text === '' ? null : text }
  if (reasoning !== '') message.reasoning_content = reasoning
  if (calls.length > 0) message.tool_calls = calls
  return {
    id,
    object: 'chat.completion',
    created: 1_700_000_000,
    model: options.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReasonOf(response.stopReason) }],
    usage: usageOf(response),
  }
}

/** OpenAI's error body. */
export function openaiError(
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
): object {
  return { error: { message, type, param, code } }
}
