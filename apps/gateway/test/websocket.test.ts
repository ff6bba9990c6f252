/** The WebSocket transport on GET /v1/responses, driven by a real `ws` client. */
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { type Stack, startStack, text, upstreamTexts } from './harness.js'

let stack: Stack | undefined
const sockets: WebSocket[] = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate()
  await stack?.close()
  stack = undefined
})

type Event = Record<string, unknown> & { type: string }

/** A connected client that queues every server message. */
async function connect(s: Stack, key = 'k') {
  const socket = new WebSocket(`${s.gateway.url.replace('http', 'ws')}/v1/responses`, {
    headers: { authorization: `Bearer ${key}` },
  })
  sockets.push(socket)
  const events: Event[] = []
  const waiters: Array<() => void> = []
  let closed: { code: number; reason: string } | undefined
  socket.on('message', (data) => {
    events.push(JSON.parse(String(data)) as Event)
    for (const wake of waiters.splice(0)) wake()
  })
  socket.on('close', (code, reason) => {
    closed = { code, reason: String(reason) }
    for (const wake of waiters.splice(0)) wake()
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })
  let read = 0
  return {
    socket,
    send: (message: Record<string, unknown>) => socket.send(JSON.stringify(message)),
    /** Events up to and including the first one matching. */
    async until(match: (event: Event) => boolean): Promise<Event[]> {
      for (;;) {
        const index = events.findIndex((event, at) => at >= read && match(event))
        if (index >= 0) {
          const taken = events.slice(read, index + 1)
          read = index + 1
          return taken
        }
        if (closed) throw new Error(`socket closed ${closed.code} ${closed.reason}`)
        await new Promise<void>((resolve) => waiters.push(resolve))
      }
    },
    async closedWith(): Promise<{ code: number; reason: string }> {
      while (!closed) await new Promise<void>((resolve) => waiters.push(resolve))
      return closed
    },
  }
}

const terminal = (event: Event) =>
  event.type === 'response.completed' || event.type === 'response.failed' || event.type === 'error'
const weather = { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} } }

describe('WebSocket sessions', () => {
  it('runs three responses and an injected tool output on one connection, retaining store: false state', async () => {
    stack = await startStack(
      [
        text('One.'),
        text('Two.'),
        { blocks: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } }] },
        text('Sunny, as injected.'),
      ],
      { config: { apiKeys: ['k'] } },
    )
    const client = await connect(stack)
    client.send({ type: 'response.create', model: 'm', input: 'first', store: false, stream_id: 'main' })
    const first = await client.until(terminal)
    expect(first[0]?.type).toBe('response.created')
    expect(first.every((event) => event.stream_id === 'main')).toBe(true)
    expect(first.map((event) => event.sequence_number)).toEqual(first.map((_, index) => index))
    const firstId = String((first.at(-1)?.response as { id: string } | undefined)?.id)

    // A continuation of a store: false response, rehydrated from the connection's retained state.
    client.send({
      type: 'response.create',
      model: 'm',
      input: 'second',
      store: false,
      previous_response_id: firstId,
      stream_id: 'main',
    })
    const second = await client.until(terminal)
    expect(second.at(-1)?.type).toBe('response.completed')
    expect(upstreamTexts(stack.upstream, 1)).toEqual(['user:first', 'assistant:One.', 'user:second'])
    const secondId = String((second.at(-1)?.response as { id: string } | undefined)?.id)

    client.send({
      type: 'response.create',
      model: 'm',
      input: 'weather?',
      store: false,
      previous_response_id: secondId,
      tools: [weather],
    })
    const third = await client.until(terminal)
    const thirdResponse = third.at(-1)?.response as { id: string; output: Array<Record<string, unknown>> }
    expect(thirdResponse.output.map((item) => item.type)).toEqual(['function_call'])
    expect(third.every((event) => !('stream_id' in event))).toBe(true)

    client.send({
      type: 'response.inject',
      response_id: thirdResponse.id,
      input: [{ type: 'function_call_output', call_id: 'call_1', output: '21°C' }],
    })
    const fourth = await client.until(terminal)
    const answer = fourth.at(-1)?.response as {
      previous_response_id: string
      output: Array<{ content?: Array<{ text: string }> }>
    }
    expect(answer.previous_response_id).toBe(thirdResponse.id)
    expect(answer.output[0]?.content?.[0]?.text).toBe('Sunny, as injected.')
    const replay = stack.upstream.requests[3]?.body.input as Array<Record<string, unknown>>
    expect(replay.map((item) => item.type)).toEqual([
      'message',
      'message',
      'message',
      'message',
      'message',
      'function_call',
      'function_call_output',
    ])
    expect(replay.at(-1)).toMatchObject({ call_id: 'call_1', output: '21°C' })

    // Nothing was stored: the retained state lived only on this connection.
    const stored = await fetch(`${stack.gateway.url}/v1/responses/${firstId}`, {
      headers: { authorization: 'Bearer k' },
    })
    expect(stored.status).toBe(404)

    // Injection failures keep the connection usable and return the input unchanged.
    const input = [{ type: 'function_call_output', call_id: 'call_1', output: 'again' }]
    client.send({ type: 'response.inject', response_id: 'resp_unknown', input })
    expect((await client.until((event) => event.type === 'response.inject.failed')).at(-1)).toMatchObject({
      code: 'response_not_found',
      input,
    })
    client.send({ type: 'response.inject', response_id: thirdResponse.id, input })
    expect((await client.until((event) => event.type === 'response.inject.failed')).at(-1)).toMatchObject({
      code: 'response_already_completed',
    })
    const mcp = {
      type: 'mcp',
      server_label: 'x',
      server_url: 'http://127.0.0.1:1/mcp',
      require_approval: 'never',
    }
    client.send({ type: 'response.create', model: 'm', input: 'x', tools: [mcp] })
    expect((await client.until((event) => event.type === 'error')).at(-1)).toMatchObject({
      error: { code: 'mcp_server_not_allowed' },
    })
    // As in OpenAI's WebSocket mode, background is refused by name; the connection stays usable.
    client.send({ type: 'response.create', model: 'm', input: 'x', background: true, stream_id: 'bg' })
    expect((await client.until((event) => event.type === 'error')).at(-1)).toMatchObject({
      stream_id: 'bg',
      error: {
        code: 'unsupported_parameter',
        param: 'background',
        message: expect.stringContaining('POST /v1/responses'),
      },
    })
    expect(client.socket.readyState).toBe(WebSocket.OPEN)
  })

  it('runs distinct stream_id lanes concurrently and one lane in order', async () => {
    stack = await startStack([text('a'), text('b'), text('c')], {
      config: { apiKeys: ['k'] },
      upstream: { chunkDelayMs: 5 },
    })
    const client = await connect(stack)
    client.send({ type: 'response.create', model: 'm', input: 'one', store: false, stream_id: 'x' })
    client.send({ type: 'response.create', model: 'm', input: 'two', store: false, stream_id: 'y' })
    client.send({ type: 'response.create', model: 'm', input: 'three', store: false, stream_id: 'x' })
    const events: Event[] = []
    for (let done = 0; done < 3; done++) events.push(...(await client.until(terminal)))
    const lane = (id: string) =>
      events.filter((event) => event.stream_id === id && event.type === 'response.completed').length
    expect([lane('x'), lane('y')]).toEqual([2, 1])
    // Lane x's second response started only after its first completed.
    const xTypes = events.filter((event) => event.stream_id === 'x').map((event) => event.type)
    expect(xTypes.indexOf('response.completed')).toBeLessThan(xTypes.lastIndexOf('response.created'))
  })

  it('refuses an unauthenticated upgrade with 401 and closes 1007 on a malformed frame', async () => {
    stack = await startStack([text('unused')], { config: { apiKeys: ['k'] } })
    const refused = new WebSocket(`${stack.gateway.url.replace('http', 'ws')}/v1/responses`, {
      headers: { authorization: 'Bearer wrong' },
    })
    sockets.push(refused)
    const status = await new Promise<number>((resolve) => {
      refused.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0))
      refused.on('error', () => {})
    })
    expect(status).toBe(401)
    const client = await connect(stack)
    client.socket.send('not json')
    expect(await client.closedWith()).toMatchObject({ code: 1007 })
    expect(stack.upstream.requests).toHaveLength(0)
  })
})
