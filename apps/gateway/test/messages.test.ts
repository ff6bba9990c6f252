/** The Anthropic Messages API through the official SDK, over a scripted Responses (and Chat) upstream. */
import Anthropic from '@anthropic-ai/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { type Stack, startStack, text } from './harness.js'

let stack: Stack | undefined
afterEach(async () => {
  await stack?.close()
  stack = undefined
})

/** An Anthropic client for the running gateway. */
export function anthropicFor(s: Stack, apiKey = 'test-key'): Anthropic {
  return new Anthropic({ apiKey, baseURL: s.gateway.url, maxRetries: 0, timeout: 20_000 })
}

const weather = {
  name: 'get_weather',
  description: 'Weather for a city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
}

/** Raw SSE event names of a streamed message, in order. */
async function rawEvents(
  s: Stack,
  body: Record<string, unknown>,
): Promise<Array<{ event: string; data: Record<string, unknown> }>> {
  const response = await fetch(`${s.gateway.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
    body: JSON.stringify({ ...body, stream: true }),
  })
  const textBody = await response.text()
  return textBody
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const event = /^event: (.*)$/m.exec(frame)?.[1] ?? ''
      const data = JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? '{}') as Record<string, unknown>
      return { event, data }
    })
}

describe('POST /v1/messages', () => {
  it('answers messages.create with a message, translating the request to the Responses upstream', async () => {
    stack = await startStack([
      { ...text('Hello there.'), usage: { inputTokens: 12, outputTokens: 3, cacheReadTokens: 4 } },
    ])
    const client = anthropicFor(stack)
    const message = await client.messages.create({
      model: 'm',
      max_tokens: 100,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hi' }],
      metadata: { user_id: 'u1' },
      stop_sequences: ['END'],
    })
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [{ type: 'text', text: 'Hello there.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 3, cache_read_input_tokens: 4 },
    })
    expect(message.id).toMatch(/^msg_/)
    const sent = stack.upstream.requests[0]?.body
    expect(stack.upstream.requests[0]?.path).toBe('/v1/responses')
    expect(sent).toMatchObject({
      model: 'm',
      instructions: 'Be brief.',
      max_output_tokens: 100,
      user: 'u1',
      stop: ['END'],
      store: false,
      stream: false,
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }],
    })
  })

  it('streams with the exact Anthropic event sequence, and messages.stream() assembles the same message', async () => {
    stack = await startStack([
      {
        blocks: [
          { type: 'thinking', thinking: 'Let me think.' },
          { type: 'text', text: 'Streaming is fun and long enough.' },
        ],
      },
      text('Again.'),
    ])
    const events = await rawEvents(stack, {
      model: 'm',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'Go' }],
    })
    const names = events.map((entry) => entry.event)
    expect(names[0]).toBe('message_start')
    expect(names[1]).toBe('ping')
    expect(names.slice(-2)).toEqual(['message_delta', 'message_stop'])
    const blockEvents = names.slice(2, -2)
    expect(blockEvents[0]).toBe('content_block_start')
    // thinking block (0): start, thinking deltas, signature, stop; then text block (1).
    const byIndex = (index: number) =>
      events
        .filter((entry) => entry.data.index === index)
        .map((entry) =>
          entry.event === 'content_block_delta'
            ? `delta:${(entry.data.delta as { type: string }).type}`
            : entry.event,
        )
    expect(byIndex(0)[0]).toBe('content_block_start')
    expect(byIndex(0)).toContain('delta:thinking_delta')
    expect(byIndex(0).at(-2)).toBe('delta:signature_delta')
    expect(byIndex(0).at(-1)).toBe('content_block_stop')
    expect(byIndex(1)[0]).toBe('content_block_start')
    expect(byIndex(1).filter((name) => name === 'delta:text_delta').length).toBeGreaterThan(1)
    expect(byIndex(1).at(-1)).toBe('content_block_stop')
    const delta = events.find((entry) => entry.event === 'message_delta')?.data
    expect(delta).toMatchObject({
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 5 },
    })

    const client = anthropicFor(stack)
    const stream = client.messages.stream({
      model: 'm',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'Go' }],
    })
    const seen: string[] = []
    stream.on('text', (chunk) => seen.push(chunk))
    const final = await stream.finalMessage()
    expect(seen.join('')).toBe('Again.')
    expect(final).toMatchObject({
      content: [{ type: 'text', text: 'Again.' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 10, output_tokens: 5 },
    })
  })

  it.each([false, true])(
    'round-trips a client tool (tool_use out, tool_result in) with thinking kept by its signature (stream: %s)',
    async (streamed) => {
      stack = await startStack([
        {
          blocks: [
            { type: 'thinking', thinking: 'Need the weather.' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } },
          ],
        },
        text('It is sunny in Oslo.'),
      ])
      const client = anthropicFor(stack)
      const ask = {
        model: 'm',
        max_tokens: 200,
        tools: [weather],
        messages: [{ role: 'user' as const, content: 'Weather in Oslo?' }],
      }
      const first = streamed
        ? await client.messages.stream(ask).finalMessage()
        : await client.messages.create(ask)
      expect(first.stop_reason).toBe('tool_use')
      expect(first.content.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_use'])
      expect(first.content[2]).toMatchObject({
        type: 'tool_use',
        id: 'call_1',
        name: 'get_weather',
        input: { city: 'Oslo' },
      })
      expect(stack.upstream.requests[0]?.body.tools).toEqual([
        {
          type: 'function',
          name: 'get_weather',
          description: 'Weather for a city',
          parameters: weather.input_schema,
          strict: false,
        },
      ])
      const second = await client.messages.create({
        ...ask,
        messages: [
          ...ask.messages,
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '18°C, sunny' }] },
        ],
      })
      expect(second.content).toEqual([{ type: 'text', text: 'It is sunny in Oslo.' }])
      const input = stack.upstream.requests[1]?.body.input as Array<Record<string, unknown>>
      expect(input.map((item) => item.type)).toEqual([
        'message',
        'reasoning',
        'message',
        'function_call',
        'function_call_output',
      ])
      expect(input[1]).toMatchObject({
        encrypted_content: 'enc_1_0',
        summary: [{ type: 'summary_text', text: 'Need the weather.' }],
      })
      expect(input[3]).toMatchObject({ call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' })
      expect(input[4]).toEqual({ type: 'function_call_output', call_id: 'call_1', output: '18°C, sunny' })
    },
  )

  it('maps tool_choice and disable_parallel_tool_use onto the upstream', async () => {
    stack = await startStack([text('a'), text('b'), text('c'), text('d')])
    const client = anthropicFor(stack)
    const base = {
      model: 'm',
      max_tokens: 10,
      tools: [weather],
      messages: [{ role: 'user' as const, content: 'x' }],
    }
    await client.messages.create({ ...base, tool_choice: { type: 'any' } })
    await client.messages.create({
      ...base,
      tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
    })
    await client.messages.create({ ...base, tool_choice: { type: 'none' } })
    await client.messages.create(base)
    const sent = stack.upstream.requests.map((request) => [
      request.body.tool_choice,
      request.body.parallel_tool_calls,
    ])
    expect(sent).toEqual([
      ['required', true],
      [{ type: 'function', name: 'get_weather' }, false],
      ['none', true],
      ['auto', true],
    ])
  })

  it('runs over a Chat Completions upstream too', async () => {
    stack = await startStack(
      [{ blocks: [{ type: 'tool_use', id: 'call_9', name: 'get_weather', input: { city: 'Rome' } }] }],
      {
        config: { upstreamApi: 'chat' },
      },
    )
    const message = await anthropicFor(stack).messages.create({
      model: 'm',
      max_tokens: 10,
      tools: [weather],
      messages: [{ role: 'user', content: 'Rome?' }],
    })
    expect(stack.upstream.requests[0]?.path).toBe('/v1/chat/completions')
    expect(message).toMatchObject({
      stop_reason: 'tool_use',
      content: [{ type: 'tool_use', id: 'call_9', input: { city: 'Rome' } }],
    })
  })

  it('counts tokens with the upstream (countTokens)', async () => {
    stack = await startStack([{ ...text('x'), usage: { inputTokens: 42 } }])
    const counted = await anthropicFor(stack).messages.countTokens({
      model: 'm',
      system: 'sys',
      tools: [weather],
      messages: [{ role: 'user', content: 'count me' }],
    })
    expect(counted).toEqual({ input_tokens: 42 })
    expect(stack.upstream.requests[0]?.body).toMatchObject({
      max_output_tokens: 1,
      stream: false,
      instructions: 'sys',
    })
  })

  it('answers bad requests and upstream errors in Anthropic shape (the SDK raises its classes)', async () => {
    stack = await startStack(
      [{ fault: { type: 'status', status: 400, body: { error: { message: 'bad model' } } } }, text('ok')],
      {
        apiKey: 'k',
        config: { apiKeys: ['k'] },
      },
    )
    const client = anthropicFor(stack, 'k')
    await expect(
      client.messages.create({
        model: 'm',
        messages: [{ role: 'user', content: 'x' }],
      } as unknown as Anthropic.MessageCreateParamsNonStreaming),
    ).rejects.toBeInstanceOf(Anthropic.BadRequestError)
    await expect(
      client.messages.create({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({
      status: 400,
      error: {
        type: 'error',
        error: { type: 'invalid_request_error', message: expect.stringContaining('bad model') },
      },
    })
    await expect(
      anthropicFor(stack, 'wrong').messages.create({
        model: 'm',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'x' }],
      }),
    ).rejects.toBeInstanceOf(Anthropic.AuthenticationError)
    await expect(
      client.messages.create({
        model: 'm',
        max_tokens: 5,
        tools: [{ type: 'bash_20250124', name: 'bash' }],
        messages: [{ role: 'user', content: 'x' }],
      }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('bash_20250124') })
  })

  it('ends a stream that breaks upstream with an error event the SDK raises', async () => {
    stack = await startStack([
      { fault: { type: 'drop', response: text('This will be cut off mid-way through.'), afterFrames: 5 } },
    ])
    const stream = anthropicFor(stack).messages.stream({
      model: 'm',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'x' }],
    })
    await expect(stream.finalMessage()).rejects.toThrow(/upstream/i)
  })
})
