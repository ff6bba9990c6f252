/**
 * Byte-exact provider stream transcripts (packages/engine/__fixtures__) replayed by the scripted
 * server to the real SDK clients, whole and cut into 7-byte TCP writes (splitting frames and UTF-8).
 */
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { type ScriptedServer, type ServerStep, startScriptedServer } from '../testing.js'
import { createAnthropicClient } from './anthropic/client.js'
import { collectStream } from './collect.js'
import { createChatClient } from './openai-chat/client.js'
import { createResponsesClient } from './openai-responses/client.js'
import type { ModelClient, ModelRequest, StreamEvent } from './types.js'

const fixture = (name: string): string =>
  readFileSync(new URL(`../../__fixtures__/${name}.chunks.txt`, import.meta.url), 'utf8')

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const request: ModelRequest = {
  model: 'claude-haiku-4-5',
  system: [],
  tools: [],
  messages: [{ id: 'u', role: 'user', content: [{ type: 'text', text: 'go' }] }],
  maxOutputTokens: 1000,
}
const retry = { sleep: async () => {}, random: () => 0 }

async function replay(kind: 'anthropic' | 'chat' | 'responses', steps: ServerStep[]) {
  server = await startScriptedServer(steps)
  const client: ModelClient =
    kind === 'anthropic'
      ? createAnthropicClient({ apiKey: 'k', baseUrl: server.url, retry })
      : kind === 'chat'
        ? createChatClient({ apiKey: 'k', baseUrl: server.openaiBaseUrl, retry })
        : createResponsesClient({ apiKey: 'k', baseUrl: server.openaiBaseUrl, retry })
  const events: StreamEvent[] = []
  const result = await collectStream(client.stream(request), (event) => events.push(event))
  return { events, result }
}

describe.each([undefined, 7])('fixture replay (chunkBytes: %s)', (chunkBytes) => {
  const step = (name: string): ServerStep =>
    chunkBytes ? { replay: fixture(name), chunkBytes } : { replay: fixture(name) }

  it('anthropic text with cache usage and multi-byte text', async () => {
    const { result } = await replay('anthropic', [step('anthropic-text')])
    expect(result).toMatchObject({
      ok: true,
      stopReason: 'end_turn',
      content: [{ type: 'text', text: 'The failing test expects UTF-8: “é” ✓' }],
      usage: { inputTokens: 3, outputTokens: 14, cacheReadTokens: 10240, cacheWriteTokens: 1825 },
    })
  })

  it('anthropic thinking, redacted thinking and two tool calls', async () => {
    const { result } = await replay('anthropic', [step('anthropic-thinking-tools')])
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.stopReason).toBe('tool_use')
    expect(result.content).toEqual([
      {
        type: 'thinking',
        thinking: 'The user wants both files. Read them in parallel.',
        signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds',
      },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP' },
      { type: 'tool_use', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'Read', input: { path: 'src/a.ts' } },
      { type: 'tool_use', id: 'toolu_01VfqW8LxuLcaSmN4qDGd4mk', name: 'Read', input: { path: 'src/b.ts' } },
    ])
  })

  it('anthropic in-stream overloaded error is retried', async () => {
    const { events, result } = await replay('anthropic', [
      step('anthropic-error-overloaded'),
      step('anthropic-text'),
    ])
    expect(events.find((event) => event.type === 'retrying')).toMatchObject({ error: { kind: 'overloaded' } })
    expect(result).toMatchObject({ ok: true, retries: 1 })
  })

  it('chat completions: two interleaved tool calls and cached usage', async () => {
    const { result } = await replay('chat', [step('openai-chat-tools')])
    expect(result).toMatchObject({
      ok: true,
      stopReason: 'tool_use',
      content: [
        { type: 'tool_use', id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', name: 'Read', input: { path: 'README.md' } },
        { type: 'tool_use', id: 'call_ABCpQ2v0aX8', name: 'Bash', input: { command: 'git status' } },
      ],
      usage: { inputTokens: 332, outputTokens: 41, cacheReadTokens: 2048, cacheWriteTokens: 0 },
    })
  })

  it('chat completions: an error chunk mid-stream is retried', async () => {
    const { events, result } = await replay('chat', [
      step('openai-chat-error-midstream'),
      step('openai-chat-reasoning'),
    ])
    expect(events.find((event) => event.type === 'retrying')).toMatchObject({ error: { kind: 'server' } })
    expect(result).toMatchObject({
      ok: true,
      retries: 1,
      content: [{ type: 'thinking' }, { type: 'text', text: '4' }],
    })
  })

  it('chat completions: OpenRouter `reasoning` with SSE comments', async () => {
    const { result } = await replay('chat', [step('openai-chat-reasoning')])
    expect(result).toMatchObject({
      ok: true,
      stopReason: 'end_turn',
      content: [
        { type: 'thinking', thinking: 'Two plus two is four.' },
        { type: 'text', text: '4' },
      ],
      usage: { inputTokens: 31, outputTokens: 12 },
    })
  })

  it('chat completions: vLLM `reasoning_content` and a length stop', async () => {
    const { result } = await replay('chat', [step('openai-chat-vllm-reasoning-content')])
    expect(result).toMatchObject({
      ok: true,
      stopReason: 'max_tokens',
      content: [
        { type: 'thinking', thinking: 'Check the edge case.' },
        { type: 'text', text: 'Use <= here.' },
      ],
    })
  })

  it('responses: reasoning with encrypted content, a function call, cached usage', async () => {
    const { result } = await replay('responses', [step('openai-responses-reasoning-tool')])
    expect(result).toMatchObject({
      ok: true,
      stopReason: 'tool_use',
      content: [
        {
          type: 'thinking',
          thinking: '**Locating the config** before editing.',
          encrypted: { id: 'rs_68a1f0c3a1b08190', content: 'gAAAAABoofDDr3xKq9v1-full-opaque-payload==' },
        },
        { type: 'tool_use', id: 'call_Qw3rTy12', name: 'Glob', input: { pattern: '**/*.toml' } },
      ],
      usage: { inputTokens: 346, outputTokens: 156, cacheReadTokens: 4864, cacheWriteTokens: 0 },
    })
  })

  it('responses: output_text ending incomplete at max_output_tokens', async () => {
    const { result } = await replay('responses', [step('openai-responses-text')])
    expect(result).toMatchObject({
      ok: true,
      stopReason: 'max_tokens',
      content: [{ type: 'text', text: 'All 42 tests pass.' }],
    })
  })

  it('responses: an error event is classified from its code and retried', async () => {
    const { events, result } = await replay('responses', [
      step('openai-responses-error-event'),
      step('openai-responses-text'),
    ])
    expect(events.find((event) => event.type === 'retrying')).toMatchObject({ error: { kind: 'server' } })
    expect(result).toMatchObject({
      ok: true,
      retries: 1,
      content: [{ type: 'text', text: 'All 42 tests pass.' }],
    })
  })

  it('responses: response.failed with context_length_exceeded is a typed overflow', async () => {
    const { result } = await replay('responses', [step('openai-responses-failed')])
    expect(result).toMatchObject({ ok: false, retries: 0, error: { kind: 'context_overflow' } })
  })
})
