import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createAuthenticator, hashApiKey } from '../src/http/auth.js'
import { redactSecrets } from '../src/http/log.js'
import { type Stack, startStack, text } from './harness.js'

let stack: Stack | undefined
afterEach(async () => {
  await stack?.close()
  stack = undefined
})

describe('the HTTP server', () => {
  it('checks bearer tokens when keys are set; probes stay open', async () => {
    stack = await startStack([text('ok')], { config: { apiKeys: ['sk-right-key'] }, apiKey: 'sk-wrong-key' })
    await expect(stack.client.responses.create({ model: 'm', input: 'x' })).rejects.toMatchObject({
      status: 401,
    })
    expect((await fetch(`${stack.gateway.url}/health`)).status).toBe(200)
    const ok = await fetch(`${stack.gateway.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-right-key', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', input: 'x' }),
    })
    expect(ok.status).toBe(200)
    expect(JSON.stringify(stack.logs)).not.toContain('sk-right-key')
  })

  it('compares key hashes (bearer or x-api-key) and redacts secrets', async () => {
    const keys = ['other', 'a-key'].map((key, index) => ({ id: `k${index}`, sha256: hashApiKey(key) }))
    const auth = createAuthenticator({ keys })
    expect(await auth.authenticate({ authorization: 'Bearer a-key' })).toMatchObject({
      tenant: 'k1',
      via: 'key',
    })
    expect(await auth.authenticate({ 'x-api-key': 'a-key' })).toMatchObject({ subject: 'k1' })
    expect(await auth.authenticate({ authorization: 'Bearer a-ke' })).toMatchObject({ status: 401 })
    expect(await auth.authenticate({})).toMatchObject({ status: 401 })
    expect(await createAuthenticator({ keys: [] }).authenticate({})).toMatchObject({
      tenant: '',
      via: 'none',
    })
    expect(redactSecrets('postgres://gw:pw@h/db Bearer abc sk-123456', ['sk-123456'])).toBe(
      'postgres://gw:***@h/db Bearer *** ***',
    )
    // The startup line with a Postgres URL: only the password goes; port, upstream and user stay.
    const line = JSON.stringify({
      msg: 'gateway listening',
      url: 'http://127.0.0.1:8080',
      upstream: 'http://127.0.0.1:8000/v1',
      db: 'postgres://gw:s3cr%2Ft@db.internal:5433/gateway',
    })
    expect(JSON.parse(redactSecrets(line, ['s3cr/t']))).toEqual({
      msg: 'gateway listening',
      url: 'http://127.0.0.1:8080',
      upstream: 'http://127.0.0.1:8000/v1',
      db: 'postgres://gw:***@db.internal:5433/gateway',
    })
  })

  it('serves /v1/models from the upstream and /ready from storage and upstream', async () => {
    const models = createServer((req, res) => {
      if (req.url === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(
          JSON.stringify({
            object: 'list',
            data: [{ id: 'served-model', object: 'model', created: 1, owned_by: 'me' }],
          }),
        )
        return
      }
      res.writeHead(404)
      res.end()
    })
    await new Promise<void>((resolve) => models.listen(0, '127.0.0.1', resolve))
    const port = (models.address() as AddressInfo).port
    stack = await startStack([], { config: { upstreamUrl: `http://127.0.0.1:${port}/v1` } })
    const list = await stack.client.models.list()
    expect(list.data.map((model) => model.id)).toEqual(['served-model'])
    const ready = await fetch(`${stack.gateway.url}/ready`)
    expect(await ready.json()).toEqual({ status: 'ready', storage: 'ok', upstream: 'ok' })
    await new Promise<void>((resolve) => models.close(() => resolve()))
    const notReady = await fetch(`${stack.gateway.url}/ready`)
    expect(notReady.status).toBe(503)
    expect(await notReady.json()).toMatchObject({ upstream: 'unreachable' })
  })

  it('names the upstream URL it cannot reach, and what to check', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/v1`
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    stack = await startStack([], { config: { upstreamUrl: url, retry: { maxRetries: 0 } } })
    const reply = await fetch(`${stack.gateway.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'served-model', input: 'hi' }),
    })
    expect(reply.status).toBe(502)
    const body = (await reply.json()) as { error: { message: string; code: string } }
    expect(body.error.code).toBe('upstream_unreachable')
    expect(body.error.message).toContain(`The upstream inference server at ${url} is unreachable`)
    expect(body.error.message).toContain('check that it is running')
  })

  it('answers unknown routes and methods with OpenAI-shaped errors', async () => {
    stack = await startStack([])
    const missing = await fetch(`${stack.gateway.url}/v1/nothing`)
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({ error: { type: 'not_found_error' } })
    expect((await fetch(`${stack.gateway.url}/v1/responses`, { method: 'PUT' })).status).toBe(405)
  })

  it('drains an open stream on shutdown before closing', async () => {
    stack = await startStack([text('drained answer '.repeat(30))], {
      upstream: { chunkDelayMs: 3, textChunkSize: 8 },
      // The drain waits for the stream, however long a busy machine makes it; the harness's 2 s
      // deadline is for tests of the cut-off.
      config: { drainTimeoutMs: 120_000 },
    })
    const stream = await stack.client.responses.create({ model: 'm', input: 'x', stream: true })
    const iterator = stream[Symbol.asyncIterator]()
    await iterator.next()
    const closing = stack.gateway.close()
    const types: string[] = []
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      types.push(next.value.type)
    await closing
    expect(types.at(-1)).toBe('response.completed')
    await stack.upstream.close()
    stack = undefined
  })
})
