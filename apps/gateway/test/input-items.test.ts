/** `GET /v1/responses/{id}/input_items` through the OpenAI SDK: a response's own input, with ids, paged. */
import { afterEach, describe, expect, it } from 'vitest'
import { type Stack, startStack, text } from './harness.js'

let stack: Stack | undefined
afterEach(async () => {
  await stack?.close()
  stack = undefined
})

describe('GET /v1/responses/{id}/input_items', () => {
  it('lists the input items of one response, newest first, paged by after and limit', async () => {
    stack = await startStack([text('a'), text('b')])
    const first = await stack.client.responses.create({ model: 'm', input: 'one' })
    const second = await stack.client.responses.create({
      model: 'm',
      previous_response_id: first.id,
      input: [
        { role: 'user', content: 'two' },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'three' }] },
      ],
    })
    const texts = (items: Array<Record<string, unknown>>) =>
      items.map((item) =>
        typeof item.content === 'string'
          ? item.content
          : (item.content as Array<{ text: string }>).map((part) => part.text).join(''),
      )
    const all = []
    for await (const item of stack.client.responses.inputItems.list(second.id)) all.push(item)
    // Only this response's input (not its parent's), newest first, each with a gateway id.
    expect(texts(all as never)).toEqual(['three', 'two'])
    expect(all.every((item) => /^msg_/.test(String(item.id)))).toBe(true)
    const ascending = await stack.client.responses.inputItems.list(second.id, { order: 'asc', limit: 1 })
    expect(texts(ascending.data as never)).toEqual(['two'])
    expect(ascending.has_more).toBe(true)
    const next = await stack.client.responses.inputItems.list(second.id, {
      order: 'asc',
      limit: 1,
      after: String(ascending.data[0]?.id),
    })
    expect(texts(next.data as never)).toEqual(['three'])
    expect(next.has_more).toBe(false)
    const firstItems = await stack.client.responses.inputItems.list(first.id)
    expect(texts(firstItems.data as never)).toEqual(['one'])
    await expect(stack.client.responses.inputItems.list('resp_missing')).rejects.toMatchObject({
      status: 404,
    })
    await expect(
      stack.client.responses.inputItems.list(second.id, { limit: 1000 } as never),
    ).rejects.toMatchObject({ status: 400, param: 'limit' })
  })
})
