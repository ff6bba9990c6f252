import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { WebSearchBackend } from '../search-backend.js'
import { createSearchBackend } from './create-search-backend.js'

/** What the fake search APIs received. */
const received: Array<{
  method: string
  path: string
  query: URLSearchParams
  headers: Record<string, unknown>
  body: string
}> = []
/** What they answer next: status and JSON (or raw text). */
let reply: { status: number; body: unknown } = { status: 200, body: {} }
let server: Server
let base = ''

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://localhost')
      received.push({
        method: request.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      })
      response.writeHead(reply.status, { 'content-type': 'application/json' })
      response.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

beforeEach(() => {
  received.length = 0
  reply = { status: 200, body: {} }
})

const signal = new AbortController().signal

function backend(config: Parameters<typeof createSearchBackend>[0]): WebSearchBackend {
  const made = createSearchBackend(config)
  if (!made.ok) throw new Error(made.message)
  return made.backend
}

describe('createSearchBackend', () => {
  it('says what is missing for each backend', () => {
    expect(createSearchBackend({ backend: 'brave' })).toEqual({
      ok: false,
      message: expect.stringContaining('web.search.api_key_env'),
    })
    expect(createSearchBackend({ backend: 'searxng' })).toEqual({
      ok: false,
      message: expect.stringContaining('web.search.base_url'),
    })
    expect(createSearchBackend({ backend: 'bing', apiKey: 'k' })).toEqual({
      ok: false,
      message: "Unknown web.search.backend 'bing'; use one of brave, tavily, searxng.",
    })
  })

  it('brave: sends the key and site operators, and reads web.results', async () => {
    reply = {
      status: 200,
      body: {
        web: {
          results: [
            {
              title: 'Streams',
              url: 'https://nodejs.org/api/stream.html',
              description: 'A <strong>stream</strong> is',
              age: '2 days ago',
            },
            { title: 'no url' },
          ],
        },
      },
    }
    const answer = await backend({ backend: 'brave', apiKey: 'secret', baseUrl: base }).search(
      { query: 'node streams', allowedDomains: ['nodejs.org'], maxResults: 10 },
      signal,
    )
    expect(answer).toEqual({
      ok: true,
      hits: [
        {
          title: 'Streams',
          url: 'https://nodejs.org/api/stream.html',
          snippet: 'A stream is',
          published: '2 days ago',
        },
      ],
    })
    expect(received[0]!.path).toBe('/web/search')
    expect(received[0]!.query.get('q')).toBe('node streams site:nodejs.org')
    expect(received[0]!.query.get('count')).toBe('10')
    expect(received[0]!.headers['x-subscription-token']).toBe('secret')
  })

  it('tavily: posts the query with native domain filters and a bearer key', async () => {
    reply = {
      status: 200,
      body: {
        results: [
          { title: 'T', url: 'https://a.example/x', content: 'snippet', published_date: '2026-01-01' },
        ],
      },
    }
    const answer = await backend({ backend: 'tavily', apiKey: 'tv-key', baseUrl: base }).search(
      { query: 'q', blockedDomains: ['spam.example'], maxResults: 5 },
      signal,
    )
    expect(answer).toEqual({
      ok: true,
      hits: [{ title: 'T', url: 'https://a.example/x', snippet: 'snippet', published: '2026-01-01' }],
    })
    expect(received[0]!.method).toBe('POST')
    expect(received[0]!.headers.authorization).toBe('Bearer tv-key')
    expect(JSON.parse(received[0]!.body)).toEqual({
      query: 'q',
      max_results: 5,
      exclude_domains: ['spam.example'],
    })
  })

  it('searxng: asks for JSON, turns blocked domains into -site: and caps the results', async () => {
    reply = {
      status: 200,
      body: {
        results: Array.from({ length: 30 }, (_, index) => ({
          title: `R${index}`,
          url: `https://r${index}.example/`,
          content: 'c',
        })),
      },
    }
    const answer = await backend({ backend: 'searxng', baseUrl: `${base}/` }).search(
      { query: 'q', blockedDomains: ['a.example', 'b.example'], maxResults: 10 },
      signal,
    )
    expect(answer.ok && answer.hits).toHaveLength(10)
    expect(received[0]!.path).toBe('/search')
    expect(received[0]!.query.get('format')).toBe('json')
    expect(received[0]!.query.get('q')).toBe('q -site:a.example -site:b.example')
    expect(received[0]!.headers.authorization).toBeUndefined()
  })

  it('turns HTTP errors and bad JSON into messages, never throws', async () => {
    reply = { status: 401, body: { error: 'bad key' } }
    expect(
      await backend({ backend: 'brave', apiKey: 'k', baseUrl: base }).search(
        { query: 'q', maxResults: 10 },
        signal,
      ),
    ).toEqual({
      ok: false,
      message: expect.stringContaining('HTTP 401 (check the API key'),
    })
    reply = { status: 403, body: 'forbidden' }
    expect(
      await backend({ backend: 'searxng', baseUrl: base }).search({ query: 'q', maxResults: 10 }, signal),
    ).toEqual({
      ok: false,
      message: expect.stringContaining('may not allow format=json'),
    })
    reply = { status: 200, body: '<html>not json' }
    expect(
      await backend({ backend: 'tavily', apiKey: 'k', baseUrl: base }).search(
        { query: 'q', maxResults: 10 },
        signal,
      ),
    ).toEqual({
      ok: false,
      message: 'the search service answered with something that is not JSON',
    })
    reply = { status: 200, body: { unexpected: true } }
    expect(
      await backend({ backend: 'tavily', apiKey: 'k', baseUrl: base }).search(
        { query: 'q', maxResults: 10 },
        signal,
      ),
    ).toEqual({
      ok: true,
      hits: [],
    })
  })

  it('reports an unreachable service', async () => {
    const answer = await backend({ backend: 'searxng', baseUrl: 'http://127.0.0.1:1' }).search(
      { query: 'q', maxResults: 10 },
      signal,
    )
    expect(answer.ok).toBe(false)
    expect(!answer.ok && answer.message).toContain('could not reach the search service')
  })
})
