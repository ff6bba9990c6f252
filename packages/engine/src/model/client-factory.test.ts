import { afterEach, describe, expect, it } from 'vitest'
import { type ScriptedServer, startScriptedServer } from '../testing.js'
import { createDefaultClientFactory } from './client-factory.js'
import { collectStream } from './collect.js'
import type { ModelRequest } from './types.js'

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const request = (model: string): ModelRequest => ({
  model,
  system: [{ text: 'sys', cacheable: true }],
  tools: [],
  messages: [
    { id: '1', role: 'user', content: [{ type: 'text', text: 'one' }] },
    { id: '2', role: 'assistant', content: [{ type: 'text', text: 'two' }] },
    { id: '3', role: 'user', content: [{ type: 'text', text: 'three' }] },
  ],
  maxOutputTokens: 100,
})

describe('default client factory', () => {
  it('names exactly what to set when a key is missing', () => {
    const factory = createDefaultClientFactory({ env: {} })
    expect(factory.createClient('anthropic/claude-sonnet-4-5')).toEqual({
      ok: false,
      error: expect.stringContaining('set ANTHROPIC_API_KEY'),
    })
    expect(factory.createClient('gpt-5')).toMatchObject({
      ok: false,
      error: expect.stringContaining('OPENAI_API_KEY'),
    })
    expect(factory.createClient('openrouter/qwen/qwen3-coder')).toMatchObject({
      ok: false,
      error: expect.stringContaining('OPENROUTER_API_KEY'),
    })
    expect(factory.createClient('claude-haiku-4-5', { apiKeyEnv: 'MY_KEY' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('MY_KEY'),
    })
    expect(factory.createClient('nonsense-model')).toMatchObject({
      ok: false,
      error: expect.stringContaining('openai-chat/'),
    })
  })

  it('Gemini: GEMINI_API_KEY, else GOOGLE_API_KEY, and GOOGLE_GEMINI_BASE_URL for a local or proxy server', async () => {
    expect(createDefaultClientFactory({ env: {} }).createClient('gemini/gemini-2.5-pro')).toEqual({
      ok: false,
      error: expect.stringContaining('set GEMINI_API_KEY or GOOGLE_API_KEY'),
    })
    server = await startScriptedServer([
      { blocks: [{ type: 'text', text: 'one' }] },
      { blocks: [{ type: 'text', text: 'two' }] },
    ])
    for (const env of [
      {
        GEMINI_API_KEY: 'gemini-key',
        GOOGLE_API_KEY: 'google-key',
        GOOGLE_GEMINI_BASE_URL: server.geminiBaseUrl,
      },
      { GOOGLE_API_KEY: 'google-key', GOOGLE_GEMINI_BASE_URL: server.geminiBaseUrl },
    ]) {
      // A bare catalog id resolves to Gemini too.
      const created = createDefaultClientFactory({ env }).createClient('gemini-2.5-pro')
      if (!created.ok) throw new Error(created.error)
      expect(created.provider).toBe('gemini')
      const result = await collectStream(created.client.stream(request(created.model)))
      expect(result.ok).toBe(true)
    }
    expect(server.requests.map((recorded) => [recorded.path, recorded.headers['x-goog-api-key']])).toEqual([
      ['/v1beta/models/gemini-2.5-pro:streamGenerateContent', 'gemini-key'],
      ['/v1beta/models/gemini-2.5-pro:streamGenerateContent', 'google-key'],
    ])
  })

  it('Gemini: cache_control turns explicit context caching on, with cache_ttl_seconds as the TTL', async () => {
    server = await startScriptedServer([{ blocks: [{ type: 'text', text: 'cached' }] }])
    const factory = createDefaultClientFactory({ env: { GEMINI_API_KEY: 'k' } })
    const off = factory.createClient('gemini/gemini-2.5-flash', { baseUrl: server.geminiBaseUrl })
    expect(off.ok && off.client.close).toBeUndefined()
    const on = factory.createClient('gemini/gemini-2.5-flash', {
      baseUrl: server.geminiBaseUrl,
      cacheControl: true,
      cacheTtlSeconds: 900,
    })
    if (!on.ok) throw new Error(on.error)
    const long = {
      ...request(on.model),
      system: [{ text: 'Rules of the house. '.repeat(400), cacheable: true }],
    }
    expect((await collectStream(on.client.stream(long))).ok).toBe(true)
    expect(server.requests[0]).toMatchObject({ path: '/v1beta/cachedContents', body: { ttl: '900s' } })
    await on.client.close?.()
    expect(server.geminiCaches).toEqual([])
  })

  it('omits Anthropic cache breakpoints when provider.cache_control is false', async () => {
    server = await startScriptedServer([{ blocks: [{ type: 'text', text: 'x' }] }])
    const factory = createDefaultClientFactory({ env: { ANTHROPIC_API_KEY: 'k' } })
    const created = factory.createClient('claude-haiku-4-5', { baseUrl: server.url, cacheControl: false })
    if (!created.ok) throw new Error(created.error)
    await collectStream(created.client.stream(request(created.model)))
    expect(JSON.stringify(server.requests[0]?.body)).not.toContain('cache_control')
  })

  it('takes the key and base URL from the environment', async () => {
    server = await startScriptedServer([{ blocks: [{ type: 'text', text: 'from env' }] }])
    const factory = createDefaultClientFactory({
      env: { ANTHROPIC_API_KEY: 'sk-ant-env', ANTHROPIC_BASE_URL: server.url },
    })
    const created = factory.createClient('claude-haiku-4-5')
    expect(created).toMatchObject({ ok: true, provider: 'anthropic', model: 'claude-haiku-4-5' })
    if (!created.ok) return
    const result = await collectStream(created.client.stream(request(created.model)))
    expect(result).toMatchObject({ ok: true, content: [{ type: 'text', text: 'from env' }] })
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-ant-env')
  })

  it('needs no key for a local compatible server and sends max_tokens', async () => {
    server = await startScriptedServer([{ blocks: [{ type: 'text', text: 'local' }] }])
    const factory = createDefaultClientFactory({ env: { OPENAI_BASE_URL: server.openaiBaseUrl } })
    const created = factory.createClient('openai-chat/qwen3-coder')
    expect(created.ok).toBe(true)
    if (!created.ok) return
    await collectStream(created.client.stream(request(created.model)))
    const body = server.requests[0]?.body as Record<string, unknown>
    expect(body.max_tokens).toBe(100)
    expect(body.stream_options).toEqual({ include_usage: true })
    expect(JSON.stringify(body)).not.toContain('cache_control')
  })

  it('passes cache_control through for OpenRouter by default, and for others when provider.cache_control is set', async () => {
    server = await startScriptedServer([
      { blocks: [{ type: 'text', text: 'a' }] },
      { blocks: [{ type: 'text', text: 'b' }] },
    ])
    const factory = createDefaultClientFactory({ env: { OPENROUTER_API_KEY: 'or-key' } })
    const openrouter = factory.createClient('openrouter/anthropic/claude-sonnet-4.5', {
      baseUrl: server.openaiBaseUrl,
    })
    const chat = factory.createClient('openai-chat/some-model', {
      baseUrl: server.openaiBaseUrl,
      cacheControl: true,
    })
    if (!openrouter.ok || !chat.ok) throw new Error('expected clients')
    await collectStream(
      openrouter.client.stream({ ...request(openrouter.model), reasoning: { effort: 'low' } }),
    )
    await collectStream(chat.client.stream(request(chat.model)))
    for (const recorded of server.requests) {
      const body = recorded.body as { messages: Array<{ role: string; content: unknown }> }
      const marked = body.messages.map((message) => JSON.stringify(message.content).includes('cache_control'))
      expect(marked).toEqual([true, true, false, true])
    }
    expect(server.requests[0]?.body.reasoning).toEqual({ effort: 'low' })
    expect(server.requests[0]?.headers.authorization).toBe('Bearer or-key')
  })

  it('loads a scripted:<file> model through the scripted client', async () => {
    const factory = createDefaultClientFactory({
      env: {},
      readFile: (path) => {
        expect(path).toBe('responses.jsonl')
        return '{"blocks":[{"type":"text","text":"scripted hello"}]}\n'
      },
    })
    const created = factory.createClient('scripted:responses.jsonl')
    expect(created).toMatchObject({ ok: true, provider: 'scripted' })
    if (!created.ok) return
    const result = await collectStream(created.client.stream(request(created.model)))
    expect(result).toMatchObject({ ok: true, content: [{ type: 'text', text: 'scripted hello' }] })
    const broken = createDefaultClientFactory({ env: {}, readFile: () => '{"blocks": 3}' })
    expect(broken.createClient('scripted:x.jsonl')).toMatchObject({
      ok: false,
      error: expect.stringContaining('step 1'),
    })
  })
})
