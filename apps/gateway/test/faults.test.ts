import { afterEach, describe, expect, it } from 'vitest'
import { type Stack, startStack, text } from './harness.js'

let stack: Stack | undefined
afterEach(async () => {
  await stack?.close()
  stack = undefined
})

const long = 'A long answer that streams in many small chunks so the test can cut it. '.repeat(20)

async function collect(stream: AsyncIterable<{ type: string }>): Promise<Array<Record<string, unknown>>> {
  const events: Array<Record<string, unknown>> = []
  for await (const event of stream) events.push(event as Record<string, unknown>)
  return events
}

describe('faults', () => {
  it('ends a stream whose upstream dies mid-way in response.failed, and stores nothing', async () => {
    stack = await startStack([{ fault: { type: 'drop', response: text(long), afterFrames: 6 } }])
    const events = await collect(
      await stack.client.responses.create({ model: 'm', input: 'x', stream: true }),
    )
    const last = events.at(-1) as {
      type: string
      response: { id: string; status: string; error: { code: string } }
    }
    expect(last.type).toBe('response.failed')
    expect(last.response.error.code).toMatch(/upstream_(stream_truncated|disconnected)/)
    await expect(stack.client.responses.retrieve(last.response.id)).rejects.toMatchObject({ status: 404 })
  })

  it('fails malformed and out-of-order upstream SSE clearly instead of hanging', async () => {
    const created = 'event: response.created\ndata: {"type":"response.created","response":{"id":"u"}}\n\n'
    stack = await startStack([
      { replay: `${created}data: {not json}\n\n` },
      {
        replay: `${created}data: {"type":"response.output_text.delta","output_index":0,"item_id":"x","delta":"hi"}\n\n`,
      },
    ])
    for (const expected of [/not a typed JSON object/, /never added/]) {
      const events = await collect(
        await stack.client.responses.create({ model: 'm', input: 'x', stream: true }),
      )
      const last = events.at(-1) as { type: string; response: { error: { message: string } } }
      expect(last.type).toBe('response.failed')
      expect(last.response.error.message).toMatch(expected)
    }
  })

  it('retries 429 and 5xx with backoff, then maps exhaustion to an OpenAI-shaped 502', async () => {
    stack = await startStack([
      { fault: { type: 'rate_limit', retryAfterMs: 1 } },
      { fault: { type: 'server_error' } },
      text('after retries'),
      { fault: { type: 'server_error' } },
      { fault: { type: 'server_error' } },
      { fault: { type: 'server_error' } },
      { fault: { type: 'server_error' } },
    ])
    const ok = await stack.client.responses.create({ model: 'm', input: 'x' })
    expect(ok.output_text).toBe('after retries')
    await expect(stack.client.responses.create({ model: 'm', input: 'x' })).rejects.toMatchObject({
      status: 502,
      type: 'upstream_error',
    })
    expect(stack.upstream.requests).toHaveLength(7)
  })

  it('passes an upstream 4xx on with its status and message', async () => {
    stack = await startStack([{ fault: { type: 'context_overflow' } }])
    await expect(stack.client.responses.create({ model: 'm', input: 'x' })).rejects.toMatchObject({
      status: 400,
    })
  })

  it('cancels the upstream request when the client disconnects mid-stream, storing nothing', async () => {
    stack = await startStack([text(long)], { upstream: { chunkDelayMs: 5, textChunkSize: 4 } })
    const controller = new AbortController()
    const stream = await stack.client.responses.create(
      { model: 'm', input: 'x', stream: true },
      { signal: controller.signal },
    )
    let responseId = ''
    let deltas = 0
    // The SDK ends the iteration quietly on abort; the loop leaves at once, since events the SDK
    // already decoded from the last chunk would still be yielded after the abort.
    await (async () => {
      for await (const event of stream) {
        if (event.type === 'response.created') responseId = event.response.id
        if (event.type === 'response.output_text.delta' && ++deltas === 3) {
          controller.abort()
          break
        }
      }
    })().catch(() => {})
    expect(deltas).toBe(3)
    await expect.poll(() => stack?.upstream.requests[0]?.closedEarly).toBe(true)
    await expect(stack.client.responses.retrieve(responseId)).rejects.toMatchObject({ status: 404 })
  })

  it('refuses an oversize request body with 413 before reading it all', async () => {
    stack = await startStack([], { config: { limits: { maxRequestBytes: 1024 } } })
    await expect(
      stack.client.responses.create({ model: 'm', input: 'x'.repeat(4096) }),
    ).rejects.toMatchObject({
      status: 413,
    })
  })

  it('lets only one of two concurrent continuations of one response win', async () => {
    stack = await startStack([text('root'), text(long), text(long)], {
      upstream: { chunkDelayMs: 2, textChunkSize: 64 },
    })
    const root = await stack.client.responses.create({ model: 'm', input: 'start' })
    const continuation = async (): Promise<string> => {
      const events = await collect(
        await stack!.client.responses.create({
          model: 'm',
          input: 'next',
          previous_response_id: root.id,
          stream: true,
        }),
      )
      const last = events.at(-1) as { type: string; response: { error?: { code: string } } }
      return last.type === 'response.failed' ? `failed:${last.response.error?.code}` : last.type
    }
    const outcomes = await Promise.all([continuation(), continuation()])
    expect(outcomes.sort()).toEqual(['failed:conflict', 'response.completed'])
  })
})

describe('budgets', () => {
  it('ends incomplete when retained bytes run out', async () => {
    stack = await startStack([text(long)], { config: { limits: { maxRetainedBytes: 300 } } })
    const response = await stack.client.responses.create({ model: 'm', input: 'x', stream: false })
    expect(response.status).toBe('incomplete')
    expect(response.incomplete_details?.reason).toBe('max_retained_bytes')
  })

  it('ends a stream incomplete when an upstream SSE line is over the ceiling', async () => {
    stack = await startStack([text(long)], {
      config: { limits: { maxSseLineBytes: 400 } },
      upstream: { textChunkSize: 1000 },
    })
    const events = await collect(
      await stack.client.responses.create({ model: 'm', input: 'x', stream: true }),
    )
    const last = events.at(-1) as { type: string; response: { incomplete_details: { reason: string } } }
    expect(last.type).toBe('response.incomplete')
    expect(last.response.incomplete_details.reason).toBe('max_sse_line_bytes')
  })

  it('refuses an upstream JSON body over the ceiling with a 502 naming it', async () => {
    stack = await startStack([text(long)], { config: { limits: { maxUpstreamJsonBytes: 500 } } })
    await expect(stack.client.responses.create({ model: 'm', input: 'x' })).rejects.toMatchObject({
      status: 502,
      code: 'max_upstream_json_bytes',
    })
  })

  it('ends a stream when one client event would be over the ceiling', async () => {
    stack = await startStack([text(long)], {
      config: { limits: { maxStreamEventBytes: 600 } },
      upstream: { textChunkSize: 1000 },
    })
    const events = await collect(
      await stack.client.responses.create({ model: 'm', input: 'x', stream: true }),
    )
    expect(events.every((event) => JSON.stringify(event).length <= 600)).toBe(true)
    const last = events.at(-1) as { type: string; response: { incomplete_details: { reason: string } } }
    expect(last.type).toBe('response.incomplete')
    expect(last.response.incomplete_details.reason).toBe('max_stream_event_bytes')
  })
})
