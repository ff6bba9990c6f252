/** An upstream that only serves Chat Completions: the gateway translates requests, streams and tool calls. */
import { afterEach, describe, expect, it } from 'vitest'
import { type Stack, startStack, text } from './harness.js'

let stack: Stack | undefined
afterEach(async () => {
  await stack?.close()
  stack = undefined
})

const weather = {
  type: 'function' as const,
  name: 'get_weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
  strict: false,
}

async function create(body: Record<string, unknown>, streamed: boolean) {
  if (!streamed)
    return (await stack!.client.responses.create({ ...body, stream: false } as never)) as unknown as Final
  const stream = await stack!.client.responses.create({ ...body, stream: true } as never)
  let final: Final | undefined
  for await (const event of stream as unknown as AsyncIterable<{ type: string; response?: Final }>)
    if (event.type === 'response.completed' || event.type === 'response.incomplete') final = event.response
  return final as Final
}

interface Final {
  id: string
  status: string
  output: Array<Record<string, unknown>>
  usage: { input_tokens: number; output_tokens: number } | null
  incomplete_details: { reason: string } | null
}

describe('a Chat Completions upstream', () => {
  it.each([false, true])(
    'answers with reasoning, text and a function call round trip (stream: %s)',
    async (streamed) => {
      stack = await startStack(
        [
          {
            blocks: [
              { type: 'thinking', thinking: 'Need the weather.' },
              { type: 'text', text: 'Let me check.' },
              { type: 'tool_use', id: 'call_c1', name: 'get_weather', input: { city: 'Oslo' } },
            ],
            usage: { inputTokens: 11, outputTokens: 7 },
          },
          text('Cold in Oslo.'),
        ],
        { config: { upstreamApi: 'chat' } },
      )
      const first = await create(
        { model: 'm', instructions: 'Be brief.', input: 'Weather in Oslo?', tools: [weather] },
        streamed,
      )
      expect(first.status).toBe('completed')
      expect(first.output.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call'])
      expect(first.output[0]).toMatchObject({
        content: [{ type: 'reasoning_text', text: 'Need the weather.' }],
      })
      expect(first.output[2]).toMatchObject({
        call_id: 'call_c1',
        name: 'get_weather',
        arguments: '{"city":"Oslo"}',
      })
      expect(first.usage).toMatchObject({ input_tokens: 11, output_tokens: 7 })
      const request = stack.upstream.requests[0]
      expect(request?.path).toBe('/v1/chat/completions')
      expect(request?.body).toMatchObject({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Weather in Oslo?' },
        ],
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: weather.parameters } }],
      })
      const second = await create(
        {
          model: 'm',
          previous_response_id: first.id,
          input: [{ type: 'function_call_output', call_id: 'call_c1', output: '-5C' }],
        },
        streamed,
      )
      expect(second.output).toMatchObject([
        { type: 'message', content: [{ type: 'output_text', text: 'Cold in Oslo.' }] },
      ])
      expect(stack.upstream.requests[1]?.body.messages).toEqual([
        { role: 'user', content: 'Weather in Oslo?' },
        {
          role: 'assistant',
          content: 'Let me check.',
          tool_calls: [
            {
              id: 'call_c1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_c1', content: '-5C' },
      ])
    },
  )

  it('maps finish_reason length to incomplete and a cut stream to failed', async () => {
    stack = await startStack(
      [
        { blocks: [{ type: 'text', text: 'cut off' }], stopReason: 'max_tokens' },
        {
          fault: { type: 'drop', response: text('a long answer that is cut in the middle'), afterFrames: 3 },
        },
      ],
      { config: { upstreamApi: 'chat' } },
    )
    const truncated = await create({ model: 'm', input: 'x' }, true)
    expect(truncated.status).toBe('incomplete')
    expect(truncated.incomplete_details?.reason).toBe('max_output_tokens')
    const stream = await stack.client.responses.create({ model: 'm', input: 'y', stream: true })
    const types: string[] = []
    for await (const event of stream) types.push(event.type)
    expect(types.at(-1)).toBe('response.failed')
  })

  it('runs store:false requests through the translator too, storing nothing', async () => {
    stack = await startStack([text('translated')], { config: { upstreamApi: 'chat' } })
    const response = await stack.client.responses.create({ model: 'm', input: 'x', store: false })
    expect(response.output_text).toBe('translated')
    await expect(stack.client.responses.retrieve(response.id)).rejects.toMatchObject({ status: 404 })
  })
})
