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
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: false,
}
const call = (id: string) => ({
  blocks: [{ type: 'tool_use' as const, id, name: 'get_weather', input: { city: 'Paris' } }],
})

describe('client-owned function tools', () => {
  it.each([false, true])('round-trip a call to the client and back (stream: %s)', async (streamed) => {
    stack = await startStack([call('call_w1'), text('It is sunny in Paris.')])
    const create = async (body: Record<string, unknown>) => {
      if (!streamed) return stack!.client.responses.create({ ...body, stream: false } as never)
      const stream = await stack!.client.responses.create({ ...body, stream: true } as never)
      let final: unknown
      for await (const event of stream as unknown as AsyncIterable<{ type: string; response?: unknown }>)
        if (event.type === 'response.completed') final = event.response
      return final as { id: string; output: Array<Record<string, unknown>>; output_text?: string }
    }
    const first = (await create({ model: 'm', input: 'Weather in Paris?', tools: [weather] })) as {
      id: string
      output: Array<Record<string, unknown>>
    }
    expect(first.output).toMatchObject([
      { type: 'function_call', call_id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}' },
    ])
    expect(String(first.output[0]?.id)).toMatch(/^fc_/)
    await expect(
      stack.client.responses.create({
        model: 'm',
        input: 'no output',
        previous_response_id: first.id,
        tools: [weather],
      }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('call_w1') })
    await expect(
      stack.client.responses.create({
        model: 'm',
        previous_response_id: first.id,
        input: [{ type: 'function_call_output', call_id: 'call_other', output: 'x' }],
      }),
    ).rejects.toMatchObject({ status: 400, param: 'input[0].call_id' })
    const second = (await create({
      model: 'm',
      previous_response_id: first.id,
      tools: [weather],
      input: [{ type: 'function_call_output', call_id: 'call_w1', output: '{"temp_c":22}' }],
    })) as { output: Array<{ type: string; content?: Array<{ text: string }> }> }
    expect(second.output[0]?.content?.[0]?.text).toBe('It is sunny in Paris.')
    const upstreamInput = stack.upstream.requests[1]?.body.input as Array<Record<string, unknown>>
    expect(upstreamInput.map((item) => item.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
    ])
    expect(upstreamInput[1]).toEqual({
      type: 'function_call',
      call_id: 'call_w1',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    })
    expect(stack.upstream.requests[1]?.body.tools).toEqual([weather])
  })
})
