import type { Message } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { collectStream } from '../collect.js'
import { resolveRetryOptions } from '../retry.js'
import { runStream } from '../run-stream.js'
import type { ModelRequest } from '../types.js'
import { toChatRequest } from './request.js'
import { type ChatChunk, chatEvents } from './stream.js'

const dialect = {
  cacheControl: false,
  maxTokensField: 'max_tokens',
  reasoningField: 'reasoning_effort',
} as const

async function* chunks(list: ChatChunk[]): AsyncGenerator<ChatChunk> {
  yield* list
}

const run = (list: ChatChunk[]) =>
  collectStream(
    runStream('test', () => chatEvents(chunks(list)), resolveRetryOptions({ maxRetries: 0 }), undefined),
  )

describe('chat stream assembly', () => {
  it('handles tool calls without ids or indexes (Ollama style) and corrects a `stop` after tool calls', async () => {
    const result = await run([
      { choices: [{ delta: { tool_calls: [{ function: { name: 'Read', arguments: '{"path":"a"}' } }] } }] },
      {
        choices: [{ delta: { tool_calls: [{ function: { name: 'Bash', arguments: '{"command":"ls"}' } }] } }],
      },
      { choices: [{ delta: {}, finish_reason: 'stop' }] },
    ])
    expect(result).toMatchObject({
      ok: true,
      stopReason: 'tool_use',
      providerStopReason: 'stop',
      content: [
        { type: 'tool_use', id: 'call_0', name: 'Read', input: { path: 'a' } },
        { type: 'tool_use', id: 'call_1', name: 'Bash', input: { command: 'ls' } },
      ],
    })
  })

  it('treats a stream without finish_reason as a dropped connection', async () => {
    const result = await run([{ choices: [{ delta: { content: 'partial' } }] }])
    expect(result).toMatchObject({ ok: false, error: { kind: 'network' } })
  })

  it('reads DeepSeek prompt_cache_hit_tokens and OpenRouter cache_write_tokens', async () => {
    const deepseek = await run([
      { choices: [{ delta: { content: 'x' }, finish_reason: 'stop' }] },
      { choices: [], usage: { prompt_tokens: 100, completion_tokens: 3, prompt_cache_hit_tokens: 64 } },
    ])
    expect(deepseek).toMatchObject({ usage: { inputTokens: 36, cacheReadTokens: 64, outputTokens: 3 } })
    const openrouter = await run([
      {
        choices: [{ delta: { content: 'x' }, finish_reason: 'stop' }],
        usage: {
          prompt_tokens: 100,
          completion_tokens: 3,
          prompt_tokens_details: { cached_tokens: 10, cache_write_tokens: 80 },
        },
      },
    ])
    expect(openrouter).toMatchObject({
      usage: { inputTokens: 10, cacheReadTokens: 10, cacheWriteTokens: 80 },
    })
  })
})

describe('chat request shape', () => {
  const messages: Message[] = [
    { id: '1', role: 'user', content: [{ type: 'text', text: 'look at this' }] },
    {
      id: '2',
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'secret', signature: 's' },
        { type: 'tool_use', id: 'c1', name: 'Read', input: { path: 'a.png' } },
        { type: 'tool_use', id: 'c2', name: 'Bash', input: { command: 'false' } },
      ],
    },
    {
      id: '3',
      role: 'user',
      content: [
        {
          type: 'tool_result',
          toolUseId: 'c1',
          content: [
            { type: 'text', text: 'an image' },
            { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'AAAA' } },
          ],
          isError: false,
        },
        { type: 'tool_result', toolUseId: 'c2', content: [{ type: 'text', text: 'exit 1' }], isError: true },
        { type: 'text', text: '<reminder>todo</reminder>' },
      ],
    },
  ]
  const request: ModelRequest = {
    model: 'm',
    system: [
      { text: 'a', cacheable: true },
      { text: 'b', cacheable: false },
    ],
    tools: [{ name: 'Read', description: 'd', inputSchema: { type: 'object' } }],
    messages,
    maxOutputTokens: 10,
    toolChoice: { type: 'any' },
  }

  it('sends tool results as tool messages in order, then images and text as a user message', () => {
    const body = toChatRequest(request, dialect)
    expect(body.messages).toEqual([
      { role: 'system', content: 'a\n\nb' },
      { role: 'user', content: 'look at this' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'Read', arguments: '{"path":"a.png"}' } },
          { id: 'c2', type: 'function', function: { name: 'Bash', arguments: '{"command":"false"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'an image' },
      { role: 'tool', tool_call_id: 'c2', content: 'Error: exit 1' },
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          { type: 'text', text: '<reminder>todo</reminder>' },
        ],
      },
    ])
    expect(body.tool_choice).toBe('required')
    expect(body.max_tokens).toBe(10)
  })

  it('marks the system prefix and the last two user turns when cache_control is on', () => {
    const body = toChatRequest(request, {
      ...dialect,
      cacheControl: true,
      maxTokensField: 'max_completion_tokens',
    })
    expect(body.messages[0]).toEqual({
      role: 'system',
      content: [
        { type: 'text', text: 'a', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'b' },
      ],
    })
    expect(body.messages[1]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'look at this', cache_control: { type: 'ephemeral' } }],
    })
    expect(JSON.stringify(body.messages[5])).toContain('cache_control')
    expect(body.max_completion_tokens).toBe(10)
  })
})
