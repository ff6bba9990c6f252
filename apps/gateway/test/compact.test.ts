import { afterEach, describe, expect, it } from 'vitest'
import { type Stack, startStack, text, upstreamTexts } from './harness.js'

let stack: Stack | undefined
afterEach(async () => {
  await stack?.close()
  stack = undefined
})

describe('POST /v1/responses/compact', () => {
  it('summarizes a stored chain into the user messages plus one compaction item that later turns read', async () => {
    stack = await startStack([
      text('a1'),
      text('a2'),
      text('The user asked twice; answers a1, a2.'),
      text('a3'),
    ])
    const first = await stack.client.responses.create({ model: 'm', input: 'q1' })
    const second = await stack.client.responses.create({
      model: 'm',
      input: 'q2',
      previous_response_id: first.id,
    })
    const compacted = await stack.client.responses.compact({ model: 'm', previous_response_id: second.id })
    expect(compacted.object).toBe('response.compaction')
    expect(compacted.output.map((item) => item.type)).toEqual(['message', 'message', 'compaction'])
    expect(stack.upstream.requests[2]?.body.instructions).toContain('Summarize the conversation')
    const next = await stack.client.responses.create({
      model: 'm',
      input: [...(compacted.output as never[]), { type: 'message', role: 'user', content: 'q3' }],
    })
    expect(next.output_text).toBe('a3')
    expect(upstreamTexts(stack.upstream, 3)).toEqual([
      'user:q1',
      'user:q2',
      'assistant:Summary of the earlier conversation:\nThe user asked twice; answers a1, a2.',
      'user:q3',
    ])
  })

  it('refuses a compaction item it did not produce, and an empty compact request', async () => {
    stack = await startStack([])
    await expect(
      stack.client.responses.create({
        model: 'm',
        input: [{ type: 'compaction', encrypted_content: 'gAAAA-foreign' } as never],
      }),
    ).rejects.toMatchObject({ status: 400 })
    await expect(stack.client.responses.compact({ model: 'm' })).rejects.toMatchObject({
      status: 400,
      param: 'input',
    })
    expect(stack.upstream.requests).toHaveLength(0)
  })
})
