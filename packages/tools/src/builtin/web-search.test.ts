import { afterEach, describe, expect, it } from 'vitest'
import { makeTestCtx, resultText } from '../testing.js'
import type { WebSearchBackend, WebSearchHit, WebSearchRequest } from '../web/search-backend.js'
import { createWebSearchTool } from './web-search.js'

const signal = new AbortController().signal
const contexts: Array<ReturnType<typeof makeTestCtx>> = []
const ctx = () => {
  const made = makeTestCtx()
  contexts.push(made)
  return made
}
afterEach(() => {
  for (const made of contexts.splice(0)) made.cleanup()
})

class RecordingBackend implements WebSearchBackend {
  readonly name = 'fake'
  readonly requests: WebSearchRequest[] = []
  constructor(public answer: Awaited<ReturnType<WebSearchBackend['search']>>) {}
  async search(request: WebSearchRequest) {
    this.requests.push(request)
    return this.answer
  }
}

const hits: WebSearchHit[] = [
  {
    title: 'Streams | Node.js',
    url: 'https://nodejs.org/api/stream.html',
    snippet: 'A stream is an\n abstract interface',
    published: '2026-01-02',
  },
  { title: 'Node streams explained', url: 'https://blog.example.com/streams' },
  { title: 'Mirror', url: 'https://docs.nodejs.org/stream' },
]

describe('WebSearch', () => {
  it('renders results as numbered markdown links with snippets', async () => {
    const backend = new RecordingBackend({ ok: true, hits })
    const result = await createWebSearchTool(backend).call({ query: 'node streams' }, ctx(), signal)
    const text = resultText(result)
    expect(text).toContain(
      '1. [Streams | Node.js](https://nodejs.org/api/stream.html) (2026-01-02)\n   A stream is an abstract interface',
    )
    expect(text).toContain('2. [Node streams explained](https://blog.example.com/streams)')
    expect(backend.requests).toEqual([{ query: 'node streams', maxResults: 10 }])
  })

  it('passes domain filters to the backend and enforces them on its answer', async () => {
    const backend = new RecordingBackend({ ok: true, hits })
    const tool = createWebSearchTool(backend)
    const allowed = resultText(
      await tool.call({ query: 'streams', allowed_domains: ['https://NodeJS.org/'] }, ctx(), signal),
    )
    expect(backend.requests[0]!.allowedDomains).toEqual(['nodejs.org'])
    expect(allowed).toContain('nodejs.org/api/stream.html')
    expect(allowed).toContain('docs.nodejs.org')
    expect(allowed).not.toContain('blog.example.com')
    const blocked = resultText(
      await tool.call({ query: 'streams', blocked_domains: ['example.com'] }, ctx(), signal),
    )
    expect(blocked).not.toContain('blog.example.com')
    expect(blocked).toContain('nodejs.org')
  })

  it('refuses both filters at once and too-short queries', async () => {
    const tool = createWebSearchTool(new RecordingBackend({ ok: true, hits }))
    expect(
      resultText(
        await tool.call(
          { query: 'x', allowed_domains: ['a.com'], blocked_domains: ['b.com'] },
          ctx(),
          signal,
        ),
      ),
    ).toContain('too short')
    expect(
      resultText(
        await tool.call(
          { query: 'xy', allowed_domains: ['a.com'], blocked_domains: ['b.com'] },
          ctx(),
          signal,
        ),
      ),
    ).toContain('not both')
  })

  it('reports the backend failure and an empty answer helpfully', async () => {
    const failing = createWebSearchTool(new RecordingBackend({ ok: false, message: 'quota exceeded' }))
    expect(resultText(await failing.call({ query: 'streams' }, ctx(), signal))).toBe(
      'The fake search failed: quota exceeded',
    )
    const empty = createWebSearchTool(new RecordingBackend({ ok: true, hits: [] }))
    expect(resultText(await empty.call({ query: 'streams' }, ctx(), signal))).toContain(
      'No results for "streams"',
    )
  })

  it('maps to webSearch and is read-only', () => {
    const tool = createWebSearchTool(new RecordingBackend({ ok: true, hits }))
    expect(tool.action({ query: 'q' }, ctx())).toEqual({ type: 'webSearch', query: 'q' })
    expect(tool.isReadOnly({ query: 'q' })).toBe(true)
  })
})
