import { once } from 'node:events'
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { sseSink } from '../src/http/sse-sink.js'

let server: Server | undefined
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  server = undefined
})

/** A server whose one request is handed to the test, and the client's response (once the sink sent the head). */
async function exchange(): Promise<{ res: ServerResponse; answer: Promise<IncomingMessage> }> {
  let respond: (res: ServerResponse) => void = () => {}
  const served = new Promise<ServerResponse>((resolve) => {
    respond = resolve
  })
  const listening = createServer((_req, res) => respond(res))
  server = listening
  listening.listen(0, '127.0.0.1')
  await once(listening, 'listening')
  const { port } = listening.address() as AddressInfo
  const req = request({ host: '127.0.0.1', port, path: '/' })
  // The second test drops the connection on purpose.
  req.on('error', () => {})
  req.end()
  const answer = once(req, 'response').then(([message]) => {
    ;(message as IncomingMessage).on('error', () => {})
    return message as IncomingMessage
  })
  return { res: await served, answer }
}

describe('sseSink', () => {
  it('writes the events of one tick as one chunk, a later tick’s as another, and what is pending before the end', async () => {
    const { res, answer: answered } = await exchange()
    const sink = sseSink(res)
    // The parser hands the client one data event per HTTP chunk: three events in one tick are one chunk.
    expect(await Promise.all(['a', 'b', 'c'].map((n) => sink.send('e', { n })))).toEqual([true, true, true])
    const answer = await answered
    const chunks: string[] = []
    answer.setEncoding('utf8')
    answer.on('data', (chunk: string) => chunks.push(chunk))
    const ended = once(answer, 'end')
    await new Promise((resolve) => setImmediate(resolve))
    await sink.send('e', { n: 'd' })
    await sink.send('e', { n: 'last' })
    sink.end()
    await ended
    expect(chunks).toEqual([
      'event: e\ndata: {"n":"a"}\n\nevent: e\ndata: {"n":"b"}\n\nevent: e\ndata: {"n":"c"}\n\n',
      'event: e\ndata: {"n":"d"}\n\nevent: e\ndata: {"n":"last"}\n\n',
    ])
  })

  it('holds the next event while the client does not read, and reports a client that left', async () => {
    const { res, answer: answered } = await exchange()
    const sink = sseSink(res)
    const big = { text: 'x'.repeat(256 * 1024) }
    expect(await sink.send('e', big)).toBe(true)
    const answer = await answered
    answer.pause()
    // Fill the socket until a flushed write reports a full buffer.
    while (!res.writableNeedDrain) {
      expect(await sink.send('e', big)).toBe(true)
      await new Promise((resolve) => setImmediate(resolve))
    }
    let settled = false
    const held = Promise.resolve(sink.send('e', { text: 'after' })).then((ok) => {
      settled = true
      return ok
    })
    await new Promise((resolve) => setImmediate(resolve))
    expect(settled).toBe(false)
    answer.resume()
    expect(await held).toBe(true)
    answer.destroy()
    await once(res, 'close')
    expect(await sink.send('e', { text: 'gone' })).toBe(false)
  })
})
