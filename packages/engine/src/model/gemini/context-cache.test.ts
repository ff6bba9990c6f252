/**
 * Issue 21 "context caching hints" for Gemini: explicit context caching over the real
 * `@google/genai` SDK against the scripted server's `cachedContents` resource. The stable prefix is
 * cached once, later requests name it (`cachedContent`) without repeating it, usage reports the
 * cache write and then the cached reads, a changed history gets a new cache (the old one deleted),
 * a cache the server lost is survived, and closing the client deletes what it created.
 */
import type { Message } from '@z-engine/protocol'
import { afterEach, describe, expect, it } from 'vitest'
import { collectStream } from '../collect.js'
import { type ScriptedServer, startScriptedServer } from '../scripted/scripted-server.js'
import type { ModelClient, ModelRequest } from '../types.js'
import { createGeminiClient } from './client.js'

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const SYSTEM = 'You fix bugs in small steps. '.repeat(800) // about 5,800 tokens
const user = (id: string, text: string): Message => ({ id, role: 'user', content: [{ type: 'text', text }] })
const assistant = (id: string, text: string): Message => ({
  id,
  role: 'assistant',
  content: [{ type: 'text', text }],
})

function request(messages: Message[]): ModelRequest {
  return {
    model: 'gemini-2.5-flash',
    system: [{ text: SYSTEM, cacheable: true }],
    tools: [
      {
        name: 'Read',
        description: 'Reads a file.',
        inputSchema: {
          type: 'object',
          properties: { file_path: { type: 'string' } },
          required: ['file_path'],
        },
      },
    ],
    messages,
    maxOutputTokens: 1024,
  }
}

const reply = (text: string) => ({
  blocks: [{ type: 'text' as const, text }],
  usage: { inputTokens: 50, outputTokens: 5 },
})

async function cachingClient(steps: number): Promise<{ client: ModelClient; server: ScriptedServer }> {
  server = await startScriptedServer(Array.from({ length: steps }, (_, n) => reply(`answer ${n + 1}`)))
  const client = createGeminiClient({
    apiKey: 'k',
    baseUrl: server.geminiBaseUrl,
    cache: { ttlSeconds: 300 },
    retry: { sleep: async () => {}, random: () => 0.5 },
  })
  return { client, server }
}

async function send(client: ModelClient, messages: Message[]) {
  const result = await collectStream(client.stream(request(messages)))
  if (!result.ok) throw new Error(result.error.message)
  return result
}

const paths = (s: ScriptedServer) => s.requests.map((r) => `${r.method} ${r.path}`)

describe('Gemini explicit context caching (issue 21 "context caching hints")', () => {
  it('caches the stable prefix once, names it on later requests, and reports writes then cached reads', async () => {
    const { client, server } = await cachingClient(2)
    const first = await send(client, [user('u1', 'The add test fails.')])
    expect(paths(server)).toEqual([
      'POST /v1beta/cachedContents',
      'POST /v1beta/models/gemini-2.5-flash:streamGenerateContent',
    ])
    const create = server.requests[0]?.body ?? {}
    expect(create).toMatchObject({ model: 'models/gemini-2.5-flash', ttl: '300s', displayName: 'z-engine' })
    expect(create.contents).toBeUndefined()
    expect(JSON.stringify(create.systemInstruction)).toContain('You fix bugs in small steps.')
    expect(JSON.stringify(create.tools)).toContain('"name":"Read"')
    const cacheTokens = server.geminiCaches[0]?.tokens ?? 0
    expect(cacheTokens).toBeGreaterThan(4_000)
    // The request names the cache and repeats none of it.
    const generate = server.requests[1]?.body ?? {}
    expect(generate.cachedContent).toBe(server.geminiCaches[0]?.name)
    expect(generate.systemInstruction).toBeUndefined()
    expect(generate.tools).toBeUndefined()
    expect(generate.contents).toEqual([{ role: 'user', parts: [{ text: 'The add test fails.' }] }])
    // The request that created the cache paid for writing it.
    expect(first.usage).toEqual({
      inputTokens: 50,
      outputTokens: 5,
      cacheReadTokens: 0,
      cacheWriteTokens: cacheTokens,
    })

    const second = await send(client, [
      user('u1', 'The add test fails.'),
      assistant('a1', 'Reading it.'),
      user('u2', 'Go on.'),
    ])
    expect(paths(server)).toHaveLength(3)
    const later = server.requests[2]?.body ?? {}
    expect(later.cachedContent).toBe(generate.cachedContent)
    expect(later.systemInstruction).toBeUndefined()
    expect(later.contents).toHaveLength(3)
    expect(second.usage).toEqual({
      inputTokens: 50,
      outputTokens: 5,
      cacheReadTokens: cacheTokens,
      cacheWriteTokens: 0,
    })

    await client.close?.()
    expect(paths(server).at(-1)).toBe(`DELETE /v1beta/${generate.cachedContent as string}`)
    expect(server.geminiCaches).toEqual([])
  })

  it('a changed history gets a new cache and the superseded one is deleted', async () => {
    const { client, server } = await cachingClient(2)
    await send(client, [user('u1', 'first question'), assistant('a1', 'Looking.'), user('u2', 'and?')])
    expect(server.geminiCaches[0]?.body.contents).toHaveLength(2)
    const firstCache = server.geminiCaches[0]?.name
    // A compaction replaced the history: the cached contents no longer start the request.
    await send(client, [
      user('s1', `Summary: ${'earlier work. '.repeat(10)}`),
      assistant('a1', 'ok'),
      user('u2', 'next'),
    ])
    expect(paths(server)).toEqual([
      'POST /v1beta/cachedContents',
      'POST /v1beta/models/gemini-2.5-flash:streamGenerateContent',
      'POST /v1beta/cachedContents',
      `DELETE /v1beta/${firstCache}`,
      'POST /v1beta/models/gemini-2.5-flash:streamGenerateContent',
    ])
    expect(server.geminiCaches.map((cache) => cache.name)).not.toContain(firstCache)
    expect(server.requests[2]?.body.contents).toHaveLength(2)
    expect(server.requests[4]?.body.cachedContent).toBe(server.geminiCaches[0]?.name)
    await client.close?.()
    expect(server.geminiCaches).toEqual([])
  })

  it('a cache the server no longer has: the request goes again uncached and succeeds', async () => {
    const { client, server } = await cachingClient(2)
    await send(client, [user('u1', 'first')])
    const name = server.geminiCaches[0]?.name as string
    // Deleted elsewhere (or expired early).
    await fetch(`${server.geminiBaseUrl}/v1beta/${name}`, { method: 'DELETE' })
    const result = await send(client, [user('u1', 'first'), assistant('a1', 'ok'), user('u2', 'second')])
    expect(result.content).toEqual([{ type: 'text', text: 'answer 2' }])
    const tail = server.requests.slice(-2).map((r) => r.body)
    expect(tail[0]?.cachedContent).toBe(name)
    expect(tail[1]?.cachedContent).toBeUndefined()
    expect(JSON.stringify(tail[1]?.systemInstruction)).toContain('You fix bugs')
  })

  it('a prefix below the minimum is sent as it is, and off means no cache calls at all', async () => {
    server = await startScriptedServer([reply('small'), reply('off')])
    const client = createGeminiClient({
      apiKey: 'k',
      baseUrl: server.geminiBaseUrl,
      cache: { ttlSeconds: 300 },
    })
    const small = { ...request([user('u1', 'hi')]), system: [{ text: 'Be brief.', cacheable: true }] }
    expect((await collectStream(client.stream(small))).ok).toBe(true)
    const off = createGeminiClient({ apiKey: 'k', baseUrl: server.geminiBaseUrl })
    expect((await collectStream(off.stream(request([user('u1', 'hi')])))).ok).toBe(true)
    expect(off.close).toBeUndefined()
    expect(paths(server)).toEqual(Array(2).fill('POST /v1beta/models/gemini-2.5-flash:streamGenerateContent'))
  })

  it('a creation the server refuses is not tried again for that prefix; the requests still go through', async () => {
    server = await startScriptedServer([reply('one'), reply('two')], { geminiCacheMinTokens: 1_000_000 })
    const client = createGeminiClient({
      apiKey: 'k',
      baseUrl: server.geminiBaseUrl,
      cache: { ttlSeconds: 300 },
    })
    expect((await collectStream(client.stream(request([user('u1', 'hi')])))).ok).toBe(true)
    expect((await collectStream(client.stream(request([user('u1', 'hi')])))).ok).toBe(true)
    expect(paths(server)).toEqual([
      'POST /v1beta/cachedContents',
      'POST /v1beta/models/gemini-2.5-flash:streamGenerateContent',
      'POST /v1beta/models/gemini-2.5-flash:streamGenerateContent',
    ])
    expect(server.requests[1]?.body.cachedContent).toBeUndefined()
  })
})
