/**
 * The four adapters driven through the REAL SDK clients against the scripted server over
 * 127.0.0.1: the same scenarios in each wire format.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { type ScriptedServer, type ServerScript, startScriptedServer, type WireFormat } from '../testing.js'
import { createAnthropicClient } from './anthropic/client.js'
import { collectStream } from './collect.js'
import { createGeminiClient } from './gemini/client.js'
import { toGeminiSignature } from './gemini/signature.js'
import { createChatClient } from './openai-chat/client.js'
import { createResponsesClient } from './openai-responses/client.js'
import type { RetryOptions } from './retry.js'
import type { ScriptedServerOptions } from './scripted/scripted-server.js'
import { scriptedCallSignature } from './scripted/wire/gemini.js'
import type { ModelClient, ModelRequest, StreamEvent } from './types.js'

const FORMATS: WireFormat[] = ['anthropic', 'openai-chat', 'openai-responses', 'gemini']

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** Recorded waits instead of real sleeps. */
function fakeSleep(): { waits: number[]; retry: RetryOptions } {
  const waits: number[] = []
  return {
    waits,
    retry: {
      sleep: async (ms) => {
        waits.push(ms)
      },
      random: () => 0.5,
    },
  }
}

async function setup(
  format: WireFormat,
  script: ServerScript,
  retry: RetryOptions = fakeSleep().retry,
  options: ScriptedServerOptions = {},
): Promise<ModelClient> {
  server = await startScriptedServer(script, options)
  switch (format) {
    case 'anthropic':
      return createAnthropicClient({ apiKey: 'k', baseUrl: server.url, retry })
    case 'openai-chat':
      return createChatClient({ apiKey: 'k', baseUrl: server.openaiBaseUrl, retry })
    case 'openai-responses':
      return createResponsesClient({ apiKey: 'k', baseUrl: server.openaiBaseUrl, retry })
    case 'gemini':
      return createGeminiClient({ apiKey: 'k', baseUrl: server.geminiBaseUrl, retry })
    default: {
      const unreachable: never = format
      return unreachable
    }
  }
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'test-model',
    system: [{ text: 'You are a test.', cacheable: true }],
    tools: [
      {
        name: 'Read',
        description: 'read',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      },
    ],
    messages: [{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'hello' }] }],
    maxOutputTokens: 2048,
    ...overrides,
  }
}

async function run(client: ModelClient, body: ModelRequest = request(), signal?: AbortSignal) {
  const events: StreamEvent[] = []
  const result = await collectStream(client.stream(body, signal), (event) => events.push(event))
  return { events, result }
}

describe.each(FORMATS)('%s wire format', (format) => {
  it('streams plain text', async () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(3)
    const client = await setup(format, [{ blocks: [{ type: 'text', text }] }])
    const { events, result } = await run(client)
    expect(result).toMatchObject({ ok: true, stopReason: 'end_turn', content: [{ type: 'text', text }] })
    const deltas = events.flatMap((event) => (event.type === 'text_delta' ? [event.text] : []))
    expect(deltas.length).toBeGreaterThan(3)
    expect(deltas.join('')).toBe(text)
    expect(events.at(-1)?.type).toBe('message_end')
    expect(server?.requests).toHaveLength(1)
    // Gemini says "stream" in the path (`:streamGenerateContent?alt=sse`), the others in the body.
    if (format === 'gemini')
      expect(server?.requests[0]?.path).toBe('/v1beta/models/test-model:streamGenerateContent')
    else expect(server?.requests[0]?.body.stream).toBe(true)
    expect(server?.requests[0]?.closedEarly).toBe(false)
  })

  it.each([false, true])(
    'assembles three parallel tool calls split across many chunks (interleaved: %s)',
    async (interleave) => {
      const inputs: Array<Record<string, unknown>> = [
        { path: 'src/index.ts', offset: 10, limit: 200 },
        { command: 'pnpm test -- --reporter=dot', timeout: 120000 },
        { pattern: 'export (function|const)', glob: '**/*.{ts,tsx}', context: { before: 2, after: 2 } },
      ]
      const client = await setup(
        format,
        [
          {
            blocks: [
              { type: 'tool_use', id: 'call_1', name: 'Read', input: inputs[0] as Record<string, unknown> },
              { type: 'tool_use', id: 'call_2', name: 'Bash', input: inputs[1] as Record<string, unknown> },
              { type: 'tool_use', id: 'call_3', name: 'Grep', input: inputs[2] as Record<string, unknown> },
            ],
          },
        ],
        undefined,
        { interleaveToolCalls: interleave, argsChunkSize: 3 },
      )
      const { events, result } = await run(client)
      expect(result.ok).toBe(true)
      if (!result.ok) return
      expect(result.stopReason).toBe('tool_use')
      expect(result.toolCallErrors).toEqual([])
      if (format === 'gemini') {
        // Gemini sends each call whole and without an id: ids are made up, unique, and the first
        // call's thought signature comes first as an empty thinking block.
        const calls = result.content.filter((block) => block.type === 'tool_use')
        expect(calls.map((call) => [call.name, call.input])).toEqual([
          ['Read', inputs[0]],
          ['Bash', inputs[1]],
          ['Grep', inputs[2]],
        ])
        expect(new Set(calls.map((call) => call.id)).size).toBe(3)
        expect(result.content[0]).toEqual({
          type: 'thinking',
          thinking: '',
          signature: toGeminiSignature(scriptedCallSignature(1)),
        })
        return
      }
      expect(result.content).toEqual([
        { type: 'tool_use', id: 'call_1', name: 'Read', input: inputs[0] },
        { type: 'tool_use', id: 'call_2', name: 'Bash', input: inputs[1] },
        { type: 'tool_use', id: 'call_3', name: 'Grep', input: inputs[2] },
      ])
      expect(events.filter((event) => event.type === 'tool_call_args_delta').length).toBeGreaterThan(30)
      const ends = events.flatMap((event) => (event.type === 'tool_call_end' ? [event.id] : []))
      expect(ends).toEqual(['call_1', 'call_2', 'call_3'])
    },
  )

  it('reports usage with cache tokens', async () => {
    const usage = { inputTokens: 120, outputTokens: 45, cacheReadTokens: 9000, cacheWriteTokens: 0 }
    // Responses and Gemini (implicit caching) have no cache-write count.
    if (format !== 'openai-responses' && format !== 'gemini') usage.cacheWriteTokens = 700
    const client = await setup(format, [{ blocks: [{ type: 'text', text: 'ok' }], usage }])
    const { events, result } = await run(client)
    expect(result.ok && result.usage).toEqual(usage)
    expect(events.some((event) => event.type === 'usage')).toBe(true)
  })

  it('round-trips thinking with its signature or encrypted content', async () => {
    const thinking = 'Reading the file first is the careful move.'
    const client = await setup(format, [
      {
        blocks: [
          {
            type: 'thinking',
            thinking,
            signature: 'sig-abc==',
            encrypted: { id: 'rs_42', content: 'gAAAA-encrypted' },
          },
          { type: 'tool_use', id: 'call_9', name: 'Read', input: { path: 'a.ts' } },
        ],
      },
      { blocks: [{ type: 'text', text: 'done' }] },
    ])
    const first = await run(client, request({ reasoning: { effort: 'high' } }))
    expect(first.result.ok).toBe(true)
    if (!first.result.ok) return
    const block = first.result.content[0]
    expect(block).toMatchObject({ type: 'thinking', thinking })
    expect(first.events.filter((event) => event.type === 'thinking_delta').length).toBeGreaterThan(1)
    const followUp = request({
      reasoning: { effort: 'high' },
      messages: [
        { id: 'u1', role: 'user', content: [{ type: 'text', text: 'hello' }] },
        { id: 'a1', role: 'assistant', content: first.result.content },
        {
          id: 'u2',
          role: 'user',
          content: [
            {
              type: 'tool_result',
              toolUseId: 'call_9',
              content: [{ type: 'text', text: 'x = 1' }],
              isError: false,
            },
          ],
        },
      ],
    })
    const second = await run(client, followUp)
    expect(second.result.ok).toBe(true)
    const sent = server?.requests[1]?.body as Record<string, unknown>
    switch (format) {
      case 'anthropic': {
        expect(block).toEqual({ type: 'thinking', thinking, signature: 'sig-abc==' })
        const messages = sent.messages as Array<{ content: unknown[] }>
        expect(messages[1]?.content[0]).toEqual({ type: 'thinking', thinking, signature: 'sig-abc==' })
        break
      }
      case 'openai-chat': {
        // Chat Completions has no signature; reasoning is shown but not sent back.
        expect(block).toEqual({ type: 'thinking', thinking })
        expect(JSON.stringify(sent.messages)).not.toContain(thinking)
        expect(sent.reasoning_effort).toBe('high')
        break
      }
      case 'openai-responses': {
        expect(block).toEqual({
          type: 'thinking',
          thinking,
          encrypted: { id: 'rs_42', content: 'gAAAA-encrypted' },
        })
        const input = sent.input as Array<Record<string, unknown>>
        expect(input[1]).toEqual({
          type: 'reasoning',
          id: 'rs_42',
          encrypted_content: 'gAAAA-encrypted',
          summary: [{ type: 'summary_text', text: thinking }],
        })
        expect(input[2]).toMatchObject({ type: 'function_call', call_id: 'call_9', name: 'Read' })
        expect(input[3]).toEqual({ type: 'function_call_output', call_id: 'call_9', output: 'x = 1' })
        expect(sent.store).toBe(false)
        expect(sent.include).toEqual(['reasoning.encrypted_content'])
        break
      }
      case 'gemini': {
        // The thought keeps the signature Gemini put on its last part; the call's own signature
        // travels as an empty thinking block and goes back on the call part.
        expect(block).toEqual({ type: 'thinking', thinking, signature: toGeminiSignature('sig-abc==') })
        const call = first.result.content.find((part) => part.type === 'tool_use')
        const contents = sent.contents as Array<{ role: string; parts: Array<Record<string, unknown>> }>
        expect(contents[1]).toEqual({
          role: 'model',
          parts: [
            { text: thinking, thought: true, thoughtSignature: 'sig-abc==' },
            {
              functionCall: { id: call?.id, name: 'Read', args: { path: 'a.ts' } },
              thoughtSignature: scriptedCallSignature(1),
            },
          ],
        })
        // The result answers the call by its id; its name comes from the call.
        expect(contents[2]).toEqual({
          role: 'user',
          parts: [{ functionResponse: { id: 'call_9', name: 'unknown', response: { output: 'x = 1' } } }],
        })
        expect(sent.generationConfig).toMatchObject({
          thinkingConfig: { includeThoughts: true, thinkingBudget: 2047 },
        })
        break
      }
      default: {
        const unreachable: never = format
        throw new Error(String(unreachable))
      }
    }
  })

  it('retries a 429 after the retry-after the server sent', async () => {
    const sleep = fakeSleep()
    const client = await setup(
      format,
      [
        { fault: { type: 'rate_limit', retryAfterSeconds: 3 } },
        { blocks: [{ type: 'text', text: 'after wait' }] },
      ],
      sleep.retry,
    )
    const { events, result } = await run(client)
    expect(result).toMatchObject({ ok: true, retries: 1, content: [{ type: 'text', text: 'after wait' }] })
    const retrying = events.find((event) => event.type === 'retrying')
    expect(retrying).toMatchObject({
      type: 'retrying',
      attempt: 1,
      delayMs: 3000,
      error: { kind: 'rate_limited' },
    })
    expect(sleep.waits).toEqual([3000])
    expect(server?.requests).toHaveLength(2)
  })

  it('prefers retry-after-ms over retry-after', async () => {
    const sleep = fakeSleep()
    const client = await setup(
      format,
      [
        { fault: { type: 'rate_limit', retryAfterSeconds: 30, retryAfterMs: 250 } },
        { blocks: [{ type: 'text', text: 'ok' }] },
      ],
      sleep.retry,
    )
    await run(client)
    expect(sleep.waits).toEqual([250])
  })

  it('retries 529 overloaded and 500 with exponential backoff', async () => {
    const sleep = fakeSleep()
    const client = await setup(
      format,
      [
        { fault: { type: 'overloaded' } },
        { fault: { type: 'server_error' } },
        { blocks: [{ type: 'text', text: 'third time' }] },
      ],
      { ...sleep.retry, baseDelayMs: 1000 },
    )
    const { events, result } = await run(client)
    expect(result).toMatchObject({ ok: true, retries: 2 })
    const kinds = events.flatMap((event) => (event.type === 'retrying' ? [event.error.kind] : []))
    expect(kinds).toEqual(['overloaded', 'server'])
    // random() = 0.5 → 3/4 of the exponential step.
    expect(sleep.waits).toEqual([750, 1500])
  })

  it('gives up after the attempt cap', async () => {
    const client = await setup(
      format,
      [
        { fault: { type: 'server_error' } },
        { fault: { type: 'server_error' } },
        { fault: { type: 'server_error' } },
      ],
      { ...fakeSleep().retry, maxRetries: 2 },
    )
    const { result } = await run(client)
    expect(result).toMatchObject({ ok: false, retries: 2, error: { kind: 'server', status: 500 } })
    expect(server?.requests).toHaveLength(3)
  })

  it('retries a connection dropped mid-stream and voids the partial message', async () => {
    const response = {
      blocks: [{ type: 'text' as const, text: 'a full answer that is long enough to be cut short' }],
    }
    const client = await setup(format, [{ fault: { type: 'drop', response, afterFrames: 6 } }, response])
    const { events, result } = await run(client)
    expect(result).toMatchObject({
      ok: true,
      retries: 1,
      content: [{ type: 'text', text: response.blocks[0]?.text }],
    })
    const retryAt = events.findIndex((event) => event.type === 'retrying')
    expect(retryAt).toBeGreaterThan(0)
    expect(events.slice(0, retryAt).some((event) => event.type === 'text_delta')).toBe(true)
    expect((events[retryAt] as { error: { kind: string } }).error.kind).toBe('network')
  })

  it('surfaces context overflow typed and never retries it', async () => {
    const client = await setup(format, [
      { fault: { type: 'context_overflow' } },
      { blocks: [{ type: 'text', text: 'x' }] },
    ])
    const { events, result } = await run(client)
    expect(result).toMatchObject({ ok: false, retries: 0, error: { kind: 'context_overflow', status: 400 } })
    expect(events.some((event) => event.type === 'retrying')).toBe(false)
    expect(server?.requests).toHaveLength(1)
    if (!result.ok) expect(result.error.message).toMatch(/compact/i)
  })

  it('does not retry an authentication failure', async () => {
    const client = await setup(format, [{ fault: { type: 'authentication' } }])
    const { result } = await run(client)
    // Gemini answers a bad key with 400 INVALID_ARGUMENT and reason API_KEY_INVALID.
    const status = format === 'gemini' ? 400 : 401
    expect(result).toMatchObject({ ok: false, error: { kind: 'authentication', status } })
    expect(server?.requests).toHaveLength(1)
  })

  it('does not retry a 400 validation error', async () => {
    const client = await setup(format, [
      {
        fault: {
          type: 'status',
          status: 400,
          body: { error: { message: 'tools.0.name: bad', type: 'invalid_request_error' } },
        },
      },
    ])
    const { result } = await run(client)
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_request' } })
    expect(server?.requests).toHaveLength(1)
  })

  it('aborting while waiting to retry ends promptly with aborted', async () => {
    const client = await setup(format, [{ fault: { type: 'rate_limit', retryAfterSeconds: 30 } }], {})
    const controller = new AbortController()
    const events: StreamEvent[] = []
    const started = performance.now()
    for await (const event of client.stream(request(), controller.signal)) {
      events.push(event)
      if (event.type === 'retrying') setTimeout(() => controller.abort(), 10)
    }
    // Not after the 30 s the server asked to wait: this bound leaves a loaded machine room.
    expect(performance.now() - started).toBeLessThan(20_000)
    expect(events.map((event) => event.type)).toEqual(['retrying', 'error'])
    expect(events[1]).toMatchObject({ error: { kind: 'aborted' } })
    expect(server?.requests).toHaveLength(1)
  })

  it('aborting mid-stream closes the HTTP stream promptly and yields aborted', async () => {
    const client = await setup(
      format,
      // Long enough (tens of seconds at 20 ms a chunk) that "promptly" has room on a loaded machine.
      [{ blocks: [{ type: 'text', text: 'slow '.repeat(2_000) }] }],
      undefined,
      { chunkDelayMs: 20 },
    )
    const controller = new AbortController()
    const events: StreamEvent[] = []
    let abortedAt = 0
    for await (const event of client.stream(request(), controller.signal)) {
      events.push(event)
      if (event.type === 'text_delta' && abortedAt === 0) {
        abortedAt = performance.now()
        controller.abort()
      }
    }
    const elapsed = performance.now() - abortedAt
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { kind: 'aborted' } })
    expect(elapsed).toBeLessThan(10_000)
    await expect.poll(() => server?.requests[0]?.closedEarly).toBe(true)
  })
})

describe('a server that cannot be reached', () => {
  it.each(FORMATS)('%s: the error names the URL, what failed and what to check', async (format) => {
    // A port that was just listening and is now closed: nothing answers there.
    const closed = await startScriptedServer([])
    const urls = {
      anthropic: closed.url,
      'openai-chat': closed.openaiBaseUrl,
      'openai-responses': closed.openaiBaseUrl,
      gemini: closed.geminiBaseUrl,
    }
    await closed.close()
    const retry = { maxRetries: 0 }
    const client =
      format === 'anthropic'
        ? createAnthropicClient({ apiKey: 'k', baseUrl: urls.anthropic, retry })
        : format === 'openai-chat'
          ? createChatClient({ apiKey: 'k', baseUrl: urls['openai-chat'], retry })
          : format === 'openai-responses'
            ? createResponsesClient({ apiKey: 'k', baseUrl: urls['openai-responses'], retry })
            : createGeminiClient({ apiKey: 'k', baseUrl: urls.gemini, retry })
    const { result } = await run(client)
    if (result.ok) throw new Error('expected a connection error')
    expect(result.error.kind).toBe('network')
    expect(result.error.message).toContain(
      `at ${urls[format]} (connection refused: nothing is listening there)`,
    )
    expect(result.error.message).toContain('Check that a server is running at that address')
  })
})
