/**
 * Gateway-executed tools through the Anthropic SDK: native web_search_20250305 (max_uses as a budget
 * of searches) and web_fetch_20250910 (WebFetch's address checks, the URL provenance rule), beside a
 * client tool; and the Responses API's web_fetch tool. Search and pages are real local HTTP servers.
 */
import { createServer, type Server } from 'node:http'
import Anthropic from '@anthropic-ai/sdk'
import { createSearchBackend } from '@z-engine/engine/web'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type Stack, startStack, text } from './harness.js'

let search: Server
let pages: Server
let searchUrl = ''
let pageBase = ''
const queries: string[] = []
const rawQueries: string[] = []
const fetched: string[] = []

const portOf = (server: Server): number => {
  const address = server.address()
  return typeof address === 'object' && address ? address.port : 0
}

beforeAll(async () => {
  search = createServer((request, response) => {
    const raw = new URL(request.url ?? '/', 'http://localhost').searchParams.get('q') ?? ''
    rawQueries.push(raw)
    // SearXNG's backend spells blocked domains as -site: operators.
    const query = raw.replace(/\s*-site:\S+/g, '')
    queries.push(query)
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        results: [
          {
            title: `About ${query}`,
            url: `${pageBase}/doc/${encodeURIComponent(query)}`,
            content: `Snippet on ${query}.`,
          },
          { title: 'Elsewhere', url: 'https://blocked.example/x', content: 'Not for you.' },
        ],
      }),
    )
  })
  pages = createServer((request, response) => {
    fetched.push(request.url ?? '')
    if (request.url === '/bin') {
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 3]))
      return
    }
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<html><head><title>Page ${request.url}</title></head><body><h1>Hello</h1><p>Body of ${request.url}.</p></body></html>`,
      )
  })
  await Promise.all([
    new Promise<void>((resolve) => search.listen(0, '127.0.0.1', resolve)),
    new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve)),
  ])
  searchUrl = `http://127.0.0.1:${portOf(search)}`
  pageBase = `http://127.0.0.1:${portOf(pages)}`
})
afterAll(() => {
  search.close()
  pages.close()
})

let stack: Stack | undefined
afterEach(async () => {
  await stack?.close()
  stack = undefined
  queries.length = 0
  rawQueries.length = 0
  fetched.length = 0
})

const backend = () => {
  const built = createSearchBackend({ backend: 'searxng', baseUrl: searchUrl })
  if (!built.ok) throw new Error(built.message)
  return built.backend
}
const call = (name: string, input: Record<string, unknown>, id: string) => ({
  blocks: [{ type: 'tool_use' as const, id, name, input }],
})
const config = () => ({ webSearch: backend(), webFetch: { allowedPrivateHosts: ['127.0.0.1'] } })
const client = (s: Stack) =>
  new Anthropic({ apiKey: 'k', baseURL: s.gateway.url, maxRetries: 0, timeout: 20_000 })
const weather = {
  name: 'get_weather',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } },
}

describe('Messages: gateway-executed web_search and a client tool', () => {
  it.each([false, true])(
    'searches in the gateway within max_uses (a budget of searches), then hands the client its tool (stream: %s)',
    async (streamed) => {
      stack = await startStack(
        [
          call('web_search', { queries: ['alpha', 'beta'] }, 'srv_1'),
          call('web_search', { queries: ['gamma', 'delta'] }, 'srv_2'),
          call('web_search', { queries: ['epsilon'] }, 'srv_3'),
          {
            blocks: [
              { type: 'text', text: 'Now the weather.' },
              { type: 'tool_use', id: 'call_w', name: 'get_weather', input: { city: 'Oslo' } },
            ],
          },
          text('Done: alpha and sunny.'),
        ],
        { config: config() },
      )
      const ask = {
        model: 'm',
        max_tokens: 300,
        tools: [
          weather,
          {
            type: 'web_search_20250305' as const,
            name: 'web_search' as const,
            max_uses: 3,
            blocked_domains: ['blocked.example'],
          },
        ],
        messages: [{ role: 'user' as const, content: 'Research, then weather.' }],
      }
      const anthropic = client(stack)
      const first = streamed
        ? await anthropic.messages.stream(ask).finalMessage()
        : await anthropic.messages.create(ask)
      expect(first.stop_reason).toBe('tool_use')
      expect(first.content.map((block) => block.type)).toEqual([
        'server_tool_use',
        'web_search_tool_result',
        'server_tool_use',
        'web_search_tool_result',
        'server_tool_use',
        'web_search_tool_result',
        'text',
        'tool_use',
      ])
      expect(first.content[0]).toMatchObject({
        id: 'srv_1',
        name: 'web_search',
        input: { queries: ['alpha', 'beta'] },
      })
      const results = first.content[1] as unknown as {
        tool_use_id: string
        content: Array<Record<string, unknown>>
      }
      expect(results.tool_use_id).toBe('srv_1')
      // blocked_domains removed the other host's hit; two queries, one distinct hit each.
      expect(results.content.map((hit) => hit.url)).toEqual([`${pageBase}/doc/alpha`, `${pageBase}/doc/beta`])
      expect(results.content[0]).toMatchObject({
        type: 'web_search_result',
        title: 'About alpha',
        encrypted_content: expect.any(String),
      })
      // Two more searches would exceed the budget of three: refused whole, nothing charged…
      expect(first.content[3]).toMatchObject({
        tool_use_id: 'srv_2',
        content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' },
      })
      // …so one more still fits.
      expect((first.content[5] as unknown as { content: unknown[] }).content).toHaveLength(1)
      expect(queries).toEqual(['alpha', 'beta', 'epsilon'])
      expect(rawQueries[0]).toContain('-site:blocked.example')
      expect(first.usage.server_tool_use).toMatchObject({ web_search_requests: 3 })
      expect(first.content[7]).toMatchObject({ type: 'tool_use', id: 'call_w', input: { city: 'Oslo' } })
      // The model saw the client tool and one web_search function; later rounds got the results.
      const tools = stack.upstream.requests[0]?.body.tools as Array<{ name: string }>
      expect(tools.map((tool) => tool.name)).toEqual(['get_weather', 'web_search'])
      const round2 = stack.upstream.requests[1]?.body.input as Array<Record<string, unknown>>
      expect(round2.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call_output'])
      expect(String(round2[2]?.output)).toContain('Snippet on alpha.')

      // Second turn: the client returns the whole assistant turn and its tool result.
      const second = await anthropic.messages.create({
        ...ask,
        messages: [
          ...ask.messages,
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_w', content: 'sunny' }] },
        ],
      })
      expect(second.content).toEqual([{ type: 'text', text: 'Done: alpha and sunny.' }])
      const replay = stack.upstream.requests[4]?.body.input as Array<Record<string, unknown>>
      expect(replay.map((item) => item.type)).toEqual([
        'message',
        'function_call',
        'function_call_output',
        'function_call',
        'function_call_output',
        'function_call',
        'function_call_output',
        'message',
        'function_call',
        'function_call_output',
      ])
      // The search results replayed from the client's blocks carry their excerpts again.
      expect(String(replay[2]?.output)).toContain('Snippet on alpha.')
      expect(String(replay[4]?.output)).toContain('max_uses_exceeded')
    },
  )

  it('releases a forced tool_choice after the gateway round that fulfilled it', async () => {
    stack = await startStack([call('web_search', { queries: ['x'] }, 's1'), text('Answer.')], {
      config: config(),
    })
    const message = await client(stack).messages.create({
      model: 'm',
      max_tokens: 100,
      tool_choice: { type: 'any' },
      tools: [{ type: 'web_search_20250305', name: 'web_search' }],
      messages: [{ role: 'user', content: 'q' }],
    })
    expect(message.stop_reason).toBe('end_turn')
    expect(stack.upstream.requests.map((request) => request.body.tool_choice)).toEqual(['required', 'auto'])
  })

  it('ends with pause_turn when the gateway-tool loop uses every round', async () => {
    stack = await startStack(
      [call('web_search', { queries: ['one'] }, 's1'), call('web_search', { queries: ['two'] }, 's2')],
      {
        config: { ...config(), limits: { maxRounds: 2 } },
      },
    )
    const message = await client(stack).messages.create({
      model: 'm',
      max_tokens: 100,
      tools: [{ type: 'web_search_20250305', name: 'web_search' }],
      messages: [{ role: 'user', content: 'q' }],
    })
    expect(message.stop_reason).toBe('pause_turn')
    expect(message.content.map((block) => block.type)).toEqual([
      'server_tool_use',
      'web_search_tool_result',
      'server_tool_use',
      'web_search_tool_result',
    ])
  })

  it('hides a gateway call of a round that also calls a client tool, and does not run it', async () => {
    stack = await startStack(
      [
        {
          blocks: [
            { type: 'tool_use', id: 's1', name: 'web_search', input: { queries: ['never'] } },
            { type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Rome' } },
          ],
        },
      ],
      { config: config() },
    )
    const message = await client(stack).messages.create({
      model: 'm',
      max_tokens: 100,
      tools: [weather, { type: 'web_search_20250305', name: 'web_search' }],
      messages: [{ role: 'user', content: 'q' }],
    })
    expect(message.content.map((block) => block.type)).toEqual(['tool_use'])
    expect(queries).toEqual([])
  })

  it('refuses native tools the operator did not enable, and versions it does not run', async () => {
    stack = await startStack([text('unused')])
    const anthropic = client(stack)
    const ask = (tool: Record<string, unknown>) =>
      anthropic.messages.create({
        model: 'm',
        max_tokens: 5,
        tools: [tool as unknown as Anthropic.ToolUnion],
        messages: [{ role: 'user', content: 'x' }],
      })
    await expect(ask({ type: 'web_search_20250305', name: 'web_search' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('--search-backend'),
    })
    await expect(ask({ type: 'web_fetch_20250910', name: 'web_fetch' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('--web-fetch'),
    })
    await expect(ask({ type: 'web_search_20990101', name: 'web_search' })).rejects.toMatchObject({
      status: 400,
    })
    expect(stack.upstream.requests).toHaveLength(0)
  })
})

describe('Messages: gateway-executed web_fetch', () => {
  it.each([false, true])(
    'fetches URLs the conversation named, with the address checks, within max_uses (stream: %s)',
    async (streamed) => {
      stack = await startStack(
        [
          call('web_fetch', { url: `${pageBase}/a` }, 'f1'),
          call('web_fetch', { url: 'http://169.254.169.254/latest/meta-data' }, 'f2'),
          call('web_fetch', { url: `${pageBase}/unseen` }, 'f3'),
          call('web_fetch', { url: `${pageBase}/a` }, 'f4'),
          text('Read it.'),
        ],
        { config: config() },
      )
      const ask = {
        model: 'm',
        max_tokens: 300,
        tools: [
          {
            type: 'web_fetch_20250910' as const,
            name: 'web_fetch' as const,
            max_uses: 3,
            citations: { enabled: true },
          },
        ],
        messages: [
          {
            role: 'user' as const,
            content: `Read ${pageBase}/a and also http://169.254.169.254/latest/meta-data please.`,
          },
        ],
      }
      const anthropic = client(stack)
      const message = streamed
        ? await anthropic.messages.stream(ask).finalMessage()
        : await anthropic.messages.create(ask)
      const results = message.content.filter(
        (block) => block.type === 'web_fetch_tool_result',
      ) as unknown as Array<{
        tool_use_id: string
        content: Record<string, unknown>
      }>
      expect(
        results.map((result) => [result.tool_use_id, result.content.type, result.content.error_code ?? null]),
      ).toEqual([
        ['f1', 'web_fetch_result', null],
        ['f2', 'web_fetch_tool_result_error', 'url_not_allowed'],
        ['f3', 'web_fetch_tool_result_error', 'url_not_allowed'],
        ['f4', 'web_fetch_tool_result_error', 'max_uses_exceeded'],
      ])
      expect(results[0]?.content).toMatchObject({
        url: `${pageBase}/a`,
        content: {
          type: 'document',
          title: 'Page /a',
          citations: { enabled: true },
          source: { type: 'text', media_type: 'text/plain', data: expect.stringContaining('Body of /a.') },
        },
      })
      // Only the one admitted page was requested: the metadata address and the unseen URL never left.
      expect(fetched).toEqual(['/a'])
      expect(message.usage.server_tool_use).toMatchObject({ web_fetch_requests: 3 })
      const round2 = stack.upstream.requests[1]?.body.input as Array<Record<string, unknown>>
      expect(String(round2.at(-1)?.output)).toContain('Body of /a.')
      expect(message.content.at(-1)).toEqual({ type: 'text', text: 'Read it.' })
    },
  )

  it('refuses a binary page and blocked domains', async () => {
    stack = await startStack(
      [
        call('web_fetch', { url: `${pageBase}/bin` }, 'f1'),
        call('web_fetch', { url: 'https://blocked.example/x' }, 'f2'),
        text('ok'),
      ],
      { config: config() },
    )
    const message = await client(stack).messages.create({
      model: 'm',
      max_tokens: 100,
      tools: [{ type: 'web_fetch_20250910', name: 'web_fetch', blocked_domains: ['blocked.example'] }],
      messages: [{ role: 'user', content: `See ${pageBase}/bin and https://blocked.example/x` }],
    })
    const codes = message.content
      .filter((block) => block.type === 'web_fetch_tool_result')
      .map((block) => (block as unknown as { content: { error_code?: string } }).content.error_code)
    expect(codes).toEqual(['unsupported_content_type', 'url_not_allowed'])
  })
})

describe('Responses: the gateway web_fetch tool', () => {
  it.each([false, true])('shows a web_fetch_call item with its lifecycle (stream: %s)', async (streamed) => {
    stack = await startStack([call('web_fetch', { url: `${pageBase}/r` }, 'c1'), text('Fetched.')], {
      config: config(),
    })
    const body = { model: 'm', input: 'fetch it', tools: [{ type: 'web_fetch' }] as unknown as [] }
    type Output = { id: string; status?: string; output: Array<Record<string, unknown>> }
    const types: string[] = []
    let response: Output
    if (streamed) {
      const stream = await stack.client.responses.create({ ...body, stream: true })
      let final: Output | undefined
      for await (const event of stream) {
        types.push(event.type)
        if (event.type === 'response.completed') final = event.response as unknown as Output
      }
      response = final as Output
    } else response = (await stack.client.responses.create(body)) as unknown as Output
    expect(response.output.map((item) => item.type)).toEqual(['web_fetch_call', 'message'])
    expect(String(response.output[0]?.id)).toMatch(/^wf_/)
    expect(response.output[0]).toMatchObject({
      status: 'completed',
      action: { type: 'fetch', url: `${pageBase}/r`, final_url: `${pageBase}/r`, title: 'Page /r' },
    })
    const second = stack.upstream.requests[1]?.body.input as Array<Record<string, unknown>>
    expect(String(second.at(-1)?.output)).toContain('Body of /r.')
    if (streamed)
      expect(types.filter((type) => type.startsWith('response.web_fetch_call.'))).toEqual([
        'response.web_fetch_call.in_progress',
        'response.web_fetch_call.fetching',
        'response.web_fetch_call.completed',
      ])
  })

  it('is refused, naming --web-fetch, when the operator did not enable it', async () => {
    stack = await startStack([text('unused')])
    await expect(
      stack.client.responses.create({
        model: 'm',
        input: 'x',
        tools: [{ type: 'web_fetch' }] as unknown as [],
      }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('--web-fetch') })
  })
})
