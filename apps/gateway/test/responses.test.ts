import { afterEach, describe, expect, it } from 'vitest'
import { type Stack, startStack, text, upstreamTexts } from './harness.js'

let stack: Stack | undefined
afterEach(async () => {
  await stack?.close()
  stack = undefined
})

describe('POST /v1/responses through the OpenAI SDK', () => {
  it('chains five turns with previous_response_id across a restart, and retrieves each', async () => {
    stack = await startStack([1, 2, 3, 4, 5].map((n) => text(`answer ${n}`)))
    let previous: string | undefined
    const ids: string[] = []
    for (let turn = 1; turn <= 5; turn++) {
      if (turn === 3) await stack.restart()
      const response = await stack.client.responses.create({
        model: 'test-model',
        input: `question ${turn}`,
        ...(previous ? { previous_response_id: previous } : {}),
      })
      expect(response.status).toBe('completed')
      expect(response.output_text).toBe(`answer ${turn}`)
      expect(response.id).toMatch(/^resp_[0-9a-f]{48}$/)
      expect(response.previous_response_id).toBe(previous ?? null)
      previous = response.id
      ids.push(response.id)
    }
    expect(upstreamTexts(stack.upstream, 4)).toEqual([
      'user:question 1',
      'assistant:answer 1',
      'user:question 2',
      'assistant:answer 2',
      'user:question 3',
      'assistant:answer 3',
      'user:question 4',
      'assistant:answer 4',
      'user:question 5',
    ])
    // The upstream is stateless: the gateway never asks it to store or chain.
    expect(stack.upstream.requests.every((request) => request.body.store === false)).toBe(true)
    expect(stack.upstream.requests.some((request) => 'previous_response_id' in request.body)).toBe(false)
    await stack.restart()
    const third = await stack.client.responses.retrieve(ids[2] ?? '')
    expect(third.output_text).toBe('answer 3')
    expect(third.previous_response_id).toBe(ids[1])
  })

  it('streams with the gateway ids, contiguous sequence numbers, and stores the accumulated turn', async () => {
    stack = await startStack([text('Hello from the scripted model, streamed in chunks.')])
    const stream = await stack.client.responses.create({ model: 'test-model', input: 'hi', stream: true })
    const events: Array<{ type: string; sequence_number: number; item_id?: string }> = []
    for await (const event of stream) events.push(event as (typeof events)[number])
    const types = events.map((event) => event.type)
    expect(types[0]).toBe('response.created')
    expect(types[1]).toBe('response.in_progress')
    expect(types).toContain('response.output_text.delta')
    expect(types.at(-1)).toBe('response.completed')
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index))
    const final = events.at(-1) as unknown as { response: { id: string; output: Array<{ id: string }> } }
    const messageId = final.response.output[0]?.id
    expect(messageId).toMatch(/^msg_[0-9a-f]{48}$/)
    expect(
      events.filter((event) => event.item_id !== undefined).every((event) => event.item_id === messageId),
    ).toBe(true)
    const stored = await stack.client.responses.retrieve(final.response.id)
    expect(stored.output_text).toBe('Hello from the scripted model, streamed in chunks.')
  })

  it('passes a store:false request through unchanged (unknown fields too) and stores nothing', async () => {
    stack = await startStack([text('passed'), text('streamed')])
    const body = { model: 'test-model', input: 'hi', store: false, vendor_extension: { keep: true } }
    const response = await stack.client.responses.create(body as never)
    expect(response.output_text).toBe('passed')
    expect(stack.upstream.requests[0]?.body).toEqual(body)
    await expect(stack.client.responses.retrieve(response.id)).rejects.toMatchObject({ status: 404 })
    const stream = await stack.client.responses.create({
      model: 'test-model',
      input: 'x',
      store: false,
      stream: true,
    })
    const types: string[] = []
    for await (const event of stream) types.push(event.type)
    expect(types.at(-1)).toBe('response.completed')
  })

  it('keeps unknown request fields on the stateful path too', async () => {
    stack = await startStack([text('ok')])
    await stack.client.responses.create({ model: 'test-model', input: 'hi', vendor_extension: 7 } as never)
    expect(stack.upstream.requests[0]?.body).toMatchObject({
      vendor_extension: 7,
      store: false,
      stream: false,
    })
  })

  it('deletes a response; it can no longer be retrieved or continued', async () => {
    stack = await startStack([text('one'), text('two')])
    const first = await stack.client.responses.create({ model: 'test-model', input: 'a' })
    await stack.client.responses.delete(first.id)
    await expect(stack.client.responses.retrieve(first.id)).rejects.toMatchObject({ status: 404 })
    await expect(
      stack.client.responses.create({ model: 'test-model', input: 'b', previous_response_id: first.id }),
    ).rejects.toMatchObject({ status: 404, code: 'response_not_found' })
    await expect(stack.client.responses.delete(first.id)).rejects.toMatchObject({ status: 404 })
  })

  it('refuses malformed requests with a specific 400', async () => {
    stack = await startStack([])
    await expect(stack.client.responses.create({ input: 'x' } as never)).rejects.toMatchObject({
      status: 400,
      param: 'model',
    })
    await expect(
      stack.client.responses.create({
        model: 'm',
        input: 'x',
        previous_response_id: 'resp_a',
        conversation: 'conv_b',
      }),
    ).rejects.toMatchObject({ status: 400, param: 'previous_response_id' })
    await expect(
      stack.client.responses.create({
        model: 'm',
        input: 'x',
        tools: [{ type: 'function', parameters: {} } as never],
      }),
    ).rejects.toMatchObject({ status: 400, param: 'tools[0].name' })
    const raw = await fetch(`${stack.gateway.url}/v1/responses`, { method: 'POST', body: '{not json' })
    expect(raw.status).toBe(400)
    expect(stack.upstream.requests).toHaveLength(0)
  })
})
