/** Gateway-owned web search through the engine's SearXNG backend, against a real local HTTP server. */
import { createServer, type Server } from 'node:http'
import { createSearchBackend } from '@z-engine/engine/web'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../src/cli.js'
import { type Stack, startStack, text } from './harness.js'

let search: Server
let searchUrl = ''
const queries: string[] = []

beforeAll(async () => {
  // A SearXNG-shaped JSON API: two results per query, echoing the query.
  search = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    const query = url.searchParams.get('q') ?? ''
    queries.push(query)
    if (query.includes('broken')) {
      response.writeHead(500).end('down')
      return
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        results: [
          {
            title: `About ${query}`,
            url: `https://docs.example/${encodeURIComponent(query)}`,
            content: `All on ${query}.`,
          },
          { title: 'Second', url: 'https://other.example/page', content: 'More.' },
        ],
      }),
    )
  })
  await new Promise<void>((resolve) => search.listen(0, '127.0.0.1', resolve))
  const address = search.address()
  searchUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
})
afterAll(() => search.close())

let stack: Stack | undefined
afterEach(async () => {
  await stack?.close()
  stack = undefined
  queries.length = 0
})

const backend = () => {
  const built = createSearchBackend({ backend: 'searxng', baseUrl: searchUrl })
  if (!built.ok) throw new Error(built.message)
  return built.backend
}
const searchCall = (args: Record<string, unknown>, id = 'call_ws') => ({
  type: 'tool_use' as const,
  id,
  name: 'web_search',
  input: args,
})

describe('gateway-owned web search', () => {
  it.each([false, true])(
    'runs in the gateway and shows a web_search_call with its sources (stream: %s)',
    async (streamed) => {
      stack = await startStack(
        [{ blocks: [searchCall({ queries: ['vitest pools', 'node 20 lts'] })] }, text('Found it.')],
        { config: { webSearch: backend() } },
      )
      const body = { model: 'm', input: 'search please', tools: [{ type: 'web_search' as const }] }
      type Output = { id: string; status?: string; output: Array<Record<string, unknown>> }
      let response: Output
      const types: string[] = []
      if (streamed) {
        const stream = await stack.client.responses.create({ ...body, stream: true })
        let final: Output | undefined
        for await (const event of stream) {
          types.push(event.type)
          if (event.type === 'response.completed') final = event.response as unknown as Output
        }
        response = final as Output
      } else response = (await stack.client.responses.create(body)) as unknown as Output
      expect(response.status).toBe('completed')
      expect(response.output.map((item) => item.type)).toEqual(['web_search_call', 'message'])
      expect(String(response.output[0]?.id)).toMatch(/^ws_/)
      expect(response.output[0]).toMatchObject({
        status: 'completed',
        action: {
          type: 'search',
          query: 'vitest pools',
          queries: ['vitest pools', 'node 20 lts'],
          sources: expect.arrayContaining([{ type: 'url', url: 'https://other.example/page' }]),
        },
      })
      expect(queries).toEqual(['vitest pools', 'node 20 lts'])
      // The model saw one function, then its call and the results as text.
      const first = stack.upstream.requests[0]?.body.tools as Array<{ type: string; name: string }>
      expect(first.map((tool) => `${tool.type}:${tool.name}`)).toEqual(['function:web_search'])
      const second = stack.upstream.requests[1]?.body.input as Array<Record<string, unknown>>
      expect(second.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call_output'])
      expect(String(second[2]?.output)).toContain('About vitest pools — https://docs.example/vitest%20pools')
      if (streamed) {
        const lifecycle = types.filter((type) => type.startsWith('response.web_search_call.'))
        expect(lifecycle).toEqual([
          'response.web_search_call.in_progress',
          'response.web_search_call.searching',
          'response.web_search_call.completed',
        ])
      }
      const stored = await stack.client.responses.retrieve(response.id)
      expect(stored.output.map((item) => item.type)).toEqual(['web_search_call', 'message'])
    },
  )

  it('refuses more than five queries, and a failed search comes back as an error the model reads', async () => {
    stack = await startStack(
      [
        { blocks: [searchCall({ queries: ['1', '2', '3', '4', '5', '6'] }, 'c1')] },
        { blocks: [searchCall({ queries: ['broken'] }, 'c2')] },
        text('Gave up.'),
      ],
      { config: { webSearch: backend() } },
    )
    const response = await stack.client.responses.create({
      model: 'm',
      input: 'x',
      tools: [{ type: 'web_search' }],
    })
    expect(response.output.map((item) => [item.type, (item as { status?: string }).status])).toEqual([
      ['web_search_call', 'failed'],
      ['web_search_call', 'failed'],
      ['message', 'completed'],
    ])
    expect(queries).toEqual(['broken'])
    const third = stack.upstream.requests[2]?.body.input as Array<Record<string, unknown>>
    const outputs = third
      .filter((item) => item.type === 'function_call_output')
      .map((item) => String(item.output))
    expect(outputs[0]).toContain('at most 5 queries')
    expect(outputs[1]).toContain('the search failed')
  })

  it('belongs to the upstream when the gateway has no search backend: declared to it as sent', async () => {
    stack = await startStack([text('From the upstream.')])
    const tool = { type: 'web_search' as const, search_context_size: 'low' as const }
    const response = await stack.client.responses.create({ model: 'm', input: 'x', tools: [tool] })
    expect(response.output_text).toBe('From the upstream.')
    expect(stack.upstream.requests[0]?.body.tools).toEqual([tool])
  })

  it('the CLI builds the backend from flags and says what is missing', async () => {
    const out: string[] = []
    const io = (argv: string[]) => ({
      argv,
      stdout: { write: (chunk: string) => out.push(chunk) } as unknown as NodeJS.WritableStream,
      stderr: { write: (chunk: string) => out.push(chunk) } as unknown as NodeJS.WritableStream,
      env: {},
      signal: AbortSignal.abort(),
    })
    expect(await main(io(['--upstream', 'http://127.0.0.1:1/v1', '--search-backend', 'searxng']))).toBe(2)
    expect(out.join('')).toContain('--search-url')
    out.length = 0
    expect(
      await main(
        io(['--upstream', 'http://127.0.0.1:1/v1', '--search-backend', 'brave', '--search-key-env', 'NOPE']),
      ),
    ).toBe(2)
    expect(out.join('')).toContain('NOPE')
  })
})
