import { afterEach, describe, expect, it } from 'vitest'
import { type Stack, startStack, text, upstreamTexts } from './harness.js'

let stack: Stack | undefined
afterEach(async () => {
  await stack?.close()
  stack = undefined
})

describe('conversations through the OpenAI SDK', () => {
  it('creates, reads, updates, lists, adds, deletes items and the conversation', async () => {
    stack = await startStack([])
    const { client } = stack
    const conversation = await client.conversations.create({
      metadata: { topic: 'demo' },
      items: [{ type: 'message', role: 'user', content: 'first' }],
    })
    expect(conversation).toMatchObject({ object: 'conversation', metadata: { topic: 'demo' } })
    expect(conversation.id).toMatch(/^conv_/)
    expect(await client.conversations.retrieve(conversation.id)).toMatchObject({ id: conversation.id })
    expect(
      await client.conversations.update(conversation.id, { metadata: { topic: 'changed' } }),
    ).toMatchObject({
      metadata: { topic: 'changed' },
    })
    const added = await client.conversations.items.create(conversation.id, {
      items: [
        { type: 'message', role: 'user', content: 'second' },
        { type: 'message', role: 'user', content: 'third' },
      ],
    })
    expect(added.data).toHaveLength(2)
    const ascending = []
    for await (const item of client.conversations.items.list(conversation.id, { order: 'asc', limit: 1 }))
      ascending.push(item)
    expect(ascending.map((item) => (item as unknown as { content: string }).content)).toEqual([
      'first',
      'second',
      'third',
    ])
    const secondId = added.data[0]?.id ?? ''
    expect(
      await client.conversations.items.retrieve(secondId, { conversation_id: conversation.id }),
    ).toMatchObject({
      content: 'second',
    })
    await client.conversations.items.delete(secondId, { conversation_id: conversation.id })
    await expect(
      client.conversations.items.retrieve(secondId, { conversation_id: conversation.id }),
    ).rejects.toMatchObject({ status: 404 })
    const page = await client.conversations.items.list(conversation.id, { order: 'desc' })
    expect(page.data.map((item) => (item as unknown as { content: string }).content)).toEqual([
      'third',
      'first',
    ])
    expect(await client.conversations.delete(conversation.id)).toMatchObject({ deleted: true })
    await expect(client.conversations.retrieve(conversation.id)).rejects.toMatchObject({ status: 404 })
  })

  it('runs five streamed turns in one conversation across a restart', async () => {
    stack = await startStack([1, 2, 3, 4, 5].map((n) => text(`reply ${n}`)))
    const conversation = await stack.client.conversations.create({})
    for (let turn = 1; turn <= 5; turn++) {
      if (turn === 4) await stack.restart()
      const stream = await stack.client.responses.create({
        model: 'test-model',
        input: `say ${turn}`,
        conversation: conversation.id,
        stream: true,
      })
      let completed: { status?: string; conversation?: { id: string } | null } | undefined
      for await (const event of stream) if (event.type === 'response.completed') completed = event.response
      expect(completed?.status).toBe('completed')
      expect(completed?.conversation).toEqual({ id: conversation.id })
    }
    expect(upstreamTexts(stack.upstream, 4)).toEqual([
      'user:say 1',
      'assistant:reply 1',
      'user:say 2',
      'assistant:reply 2',
      'user:say 3',
      'assistant:reply 3',
      'user:say 4',
      'assistant:reply 4',
      'user:say 5',
    ])
    await stack.restart()
    const items = await stack.client.conversations.items.list(conversation.id, { order: 'asc', limit: 100 })
    expect(items.data).toHaveLength(10)
    expect(items.data.at(-1)).toMatchObject({ type: 'message', role: 'assistant' })
  })

  it('answers 404 for an unknown conversation and writes nothing upstream', async () => {
    stack = await startStack([text('never')])
    await expect(
      stack.client.responses.create({ model: 'm', input: 'x', conversation: 'conv_missing' }),
    ).rejects.toMatchObject({ status: 404, code: 'conversation_not_found' })
    expect(stack.upstream.requests).toHaveLength(0)
  })
})
