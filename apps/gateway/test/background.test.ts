/**
 * Background responses through the official OpenAI SDK: `background: true` runs detached, `GET`
 * shows it queued/in progress/completed, `cancel` stops it, a client that leaves a background stream
 * does not stop it, and `retrieve(id, { stream: true, starting_after })` replays then follows.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { type Stack, startStack, text } from './harness.js'

let stack: Stack | undefined
afterEach(async () => {
  await stack?.close()
  stack = undefined
})

const long = 'A long answer that streams in many small chunks so the test can cut it. '.repeat(20)
/** Long enough at 4 characters a chunk, 5 ms apart, that it is still running when a test acts. */
const endless = 'An answer that would take minutes to stream at this pace. '.repeat(2000)

type Event = { type: string; sequence_number: number; delta?: string; response?: { id: string } }

const deltasOf = (events: Event[]): string =>
  events
    .filter((event) => event.type === 'response.output_text.delta')
    .map((event) => event.delta ?? '')
    .join('')

describe('background responses', () => {
  it('answers queued at once, runs detached, and is retrievable when completed', async () => {
    stack = await startStack([text(long)], { upstream: { chunkDelayMs: 2, textChunkSize: 16 } })
    const created = await stack.client.responses.create({ model: 'm', input: 'go', background: true })
    expect(created.status).toBe('queued')
    expect(created.background).toBe(true)
    await expect
      .poll(async () => (await stack!.client.responses.retrieve(created.id)).status, { timeout: 30_000 })
      .toBe('completed')
    const done = await stack.client.responses.retrieve(created.id)
    expect(done.output_text).toBe(long)
    expect(done.background).toBe(true)
    // Stored as any response: its input is listed, and it can be continued.
    const input = await stack.client.responses.inputItems.list(created.id)
    expect(input.data).toHaveLength(1)
    // Cancelling an ended background response answers it unchanged.
    expect((await stack.client.responses.cancel(created.id)).status).toBe('completed')
  })

  it('goes on when the streaming client leaves, and resumes from starting_after', async () => {
    stack = await startStack([text(long)], { upstream: { chunkDelayMs: 5, textChunkSize: 4 } })
    const controller = new AbortController()
    const stream = await stack.client.responses.create(
      { model: 'm', input: 'go', background: true, stream: true },
      { signal: controller.signal },
    )
    const first: Event[] = []
    await (async () => {
      for await (const event of stream as AsyncIterable<Event>) {
        first.push(event)
        if (first.filter((seen) => seen.type === 'response.output_text.delta').length === 5) {
          controller.abort()
          break
        }
      }
    })().catch(() => {})
    expect(first.slice(0, 3).map((event) => event.type)).toEqual([
      'response.created',
      'response.queued',
      'response.in_progress',
    ])
    const id = first[0]?.response?.id ?? ''
    const last = first.at(-1)?.sequence_number ?? -1
    const resumed: Event[] = []
    const replay = await stack.client.responses.retrieve(id, { stream: true, starting_after: last })
    for await (const event of replay as AsyncIterable<Event>) resumed.push(event)
    // Numbered on from where the client left, without a gap, to the terminal event.
    expect(resumed[0]?.sequence_number).toBe(last + 1)
    resumed.forEach((event, index) => {
      expect(event.sequence_number).toBe(last + 1 + index)
    })
    expect(resumed.at(-1)?.type).toBe('response.completed')
    expect(deltasOf(first) + deltasOf(resumed)).toBe(long)
    // The client's leaving did not cancel the upstream request.
    expect(stack.upstream.requests[0]?.closedEarly).toBe(false)
    expect((await stack.client.responses.retrieve(id)).output_text).toBe(long)
    // A replay from the start gives every event again.
    const all: Event[] = []
    for await (const event of (await stack.client.responses.retrieve(id, {
      stream: true,
    })) as AsyncIterable<Event>)
      all.push(event)
    expect(all.map((event) => event.sequence_number)).toEqual(all.map((_, index) => index))
    expect(deltasOf(all)).toBe(long)
  })

  it('cancels a running background response: status cancelled, upstream request dropped, nothing stored', async () => {
    stack = await startStack([text(endless)], { upstream: { chunkDelayMs: 5, textChunkSize: 4 } })
    const created = await stack.client.responses.create({ model: 'm', input: 'go', background: true })
    await expect
      .poll(async () => (await stack!.client.responses.retrieve(created.id)).status, { timeout: 30_000 })
      .toBe('in_progress')
    const cancelled = await stack.client.responses.cancel(created.id)
    expect(cancelled.status).toBe('cancelled')
    await expect.poll(() => stack?.upstream.requests[0]?.closedEarly).toBe(true)
    expect((await stack.client.responses.retrieve(created.id)).status).toBe('cancelled')
    // Cancelling twice answers the same; a cancelled response cannot be continued (never stored).
    expect((await stack.client.responses.cancel(created.id)).status).toBe('cancelled')
    await expect(
      stack.client.responses.create({ model: 'm', input: 'more', previous_response_id: created.id }),
    ).rejects.toMatchObject({ status: 404 })
  })

  it('refuses what has no background meaning by name', async () => {
    stack = await startStack([text('a')])
    await expect(
      stack.client.responses.create({ model: 'm', input: 'x', background: true, store: false }),
    ).rejects.toMatchObject({ status: 400, param: 'background' })
    const done = await stack.client.responses.create({ model: 'm', input: 'x' })
    await expect(stack.client.responses.cancel(done.id)).rejects.toMatchObject({
      status: 400,
      code: 'response_not_cancellable',
    })
    await expect(stack.client.responses.cancel('resp_missing')).rejects.toMatchObject({ status: 404 })
    await expect(
      stack.client.responses.retrieve(done.id, { stream: true, starting_after: 0 }),
    ).rejects.toMatchObject({ status: 400, param: 'stream' })
    await expect(stack.client.responses.retrieve('resp_missing', { stream: true })).rejects.toMatchObject({
      status: 404,
    })
    expect((await stack.client.responses.retrieve(done.id)).status).toBe('completed')
  })
})
