import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { RecordingSideModel } from '../recording-ports.js'
import { makeTestCtx, resultText, type TestCtxOptions } from '../testing.js'
import { PageCache } from '../web/page-cache.js'
import type { HostResolver, ResolvedAddress } from '../web/resolver.js'
import { createWebFetchTool, type WebFetchOptions } from './web-fetch.js'

const docsPage = readFileSync(new URL('../web/__fixtures__/docs-page.html', import.meta.url), 'utf8')

/** Every request the local server received: path and Host header. */
const received: Array<{ path: string; host: string }> = []
let server: Server
let port = 0

type Route = (request: IncomingMessage, response: ServerResponse) => void
const routes: Record<string, Route> = {
  '/docs': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.end(docsPage)
  },
  '/plain': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' })
    response.end('just text\nline two')
  },
  '/gzip': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' })
    response.end(
      gzipSync('<html><head><title>Zipped</title></head><body><p>compressed <b>page</b></p></body></html>'),
    )
  },
  '/latin1': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' })
    response.end(Buffer.from([0x63, 0x61, 0x66, 0xe9]))
  },
  '/long': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' })
    response.end(Array.from({ length: 2000 }, (_, index) => `line ${index + 1} of the long page`).join('\n'))
  },
  '/image': (_request, response) => {
    response.writeHead(200, { 'content-type': 'image/png' })
    response.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]))
  },
  '/missing': (_request, response) => {
    response.writeHead(404, { 'content-type': 'text/html' })
    response.end('<p>no such page</p>')
  },
  '/same-host-redirect': (_request, response) => {
    response.writeHead(301, { location: '/plain' })
    response.end()
  },
  '/redirect-to-private-name': (_request, response) => {
    response.writeHead(302, { location: `http://internal.example.com:${port}/secret` })
    response.end()
  },
  '/redirect-to-loopback': (_request, response) => {
    response.writeHead(302, { location: `http://127.0.0.1:${port}/secret` })
    response.end()
  },
  '/redirect-to-metadata': (_request, response) => {
    response.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' })
    response.end()
  },
  '/redirect-to-other-host': (_request, response) => {
    response.writeHead(302, { location: 'https://docs.example.org/moved' })
    response.end()
  },
  '/loop': (_request, response) => {
    response.writeHead(302, { location: '/loop' })
    response.end()
  },
  '/slow': () => {
    // Never answers: the fetch must time out.
  },
  '/secret': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' })
    response.end('internal secret')
  },
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!
    received.push({ path, host: request.headers.host ?? '' })
    const route = routes[path]
    if (route === undefined) {
      response.writeHead(404)
      response.end()
      return
    }
    route(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const contexts: Array<ReturnType<typeof makeTestCtx>> = []
function ctx(options: TestCtxOptions = {}) {
  const made = makeTestCtx(options)
  contexts.push(made)
  return made
}
afterEach(() => {
  received.length = 0
  for (const made of contexts.splice(0)) made.cleanup()
})

/** A resolver answering from a table, recording every name it was asked. */
function tableResolver(table: Record<string, string[]>): HostResolver & { asked: string[] } {
  const asked: string[] = []
  const resolver = async (hostname: string): Promise<ResolvedAddress[]> => {
    asked.push(hostname)
    const addresses = table[hostname]
    if (addresses === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
  return Object.assign(resolver, { asked })
}

const dns = () =>
  tableResolver({
    'intranet.example.com': ['127.0.0.1'],
    'evil.example.com': ['127.0.0.1'],
    'rebind.example.com': ['93.184.216.34', '127.0.0.1'],
    'internal.example.com': ['10.0.0.7'],
    'v6.example.com': ['::ffff:127.0.0.1'],
    'docs.example.org': ['93.184.216.34'],
  })

function tool(options: WebFetchOptions = {}) {
  return createWebFetchTool({ resolver: dns(), allowedPrivateHosts: ['intranet.example.com'], ...options })
}

const signal = new AbortController().signal
const intranet = (path: string) => `http://intranet.example.com:${port}${path}`

describe('WebFetch address checks', () => {
  it('refuses a host that resolves to a loopback address, before connecting', async () => {
    const result = await tool().call(
      { url: `http://evil.example.com:${port}/secret`, prompt: 'x' },
      ctx(),
      signal,
    )
    expect(result.ok).toBe(false)
    expect(resultText(result)).toContain('Refused evil.example.com: it resolves to 127.0.0.1')
    expect(resultText(result)).toContain('web.allowed_private_hosts')
    expect(received).toEqual([])
  })

  it('refuses a name with any private address among public ones (rebinding), and IPv4-mapped IPv6', async () => {
    for (const host of ['rebind.example.com', 'v6.example.com']) {
      const result = await tool().call({ url: `http://${host}:${port}/secret`, prompt: 'x' }, ctx(), signal)
      expect(resultText(result)).toContain(`Refused ${host}`)
    }
    expect(received).toEqual([])
  })

  it('refuses loopback, private and metadata addresses in the URL itself, in any spelling', async () => {
    for (const url of [
      `http://127.0.0.1:${port}/secret`,
      `http://localhost:${port}/secret`,
      `http://2130706433:${port}/secret`,
      `http://0x7f.1:${port}/secret`,
      `http://[::1]:${port}/secret`,
      'http://169.254.169.254/latest/meta-data/',
      'http://user:pw@docs.example.org/',
      'file:///etc/passwd',
    ]) {
      const result = await tool().call({ url, prompt: 'x' }, ctx(), signal)
      expect(result.ok, url).toBe(false)
      expect(resultText(result), url).toMatch(/^Refused /)
    }
    expect(received).toEqual([])
  })

  it('fetches from a local server once web.allowed_private_hosts names the host, dialing the checked address', async () => {
    const resolver = dns()
    const result = await tool({ resolver }).call({ url: intranet('/plain'), prompt: 'x' }, ctx(), signal)
    expect(resultText(result)).toContain('just text\nline two')
    // The name exists only in the injected resolver: the socket went to the address it returned,
    // while the Host header kept the name.
    expect(received).toEqual([{ path: '/plain', host: `intranet.example.com:${port}` }])
    expect(resolver.asked).toEqual(['intranet.example.com'])
  })

  it('refuses a redirect to a private name, a loopback literal or the metadata address', async () => {
    for (const path of ['/redirect-to-private-name', '/redirect-to-loopback', '/redirect-to-metadata']) {
      const result = await tool().call({ url: intranet(path), prompt: 'x' }, ctx(), signal)
      expect(result.ok, path).toBe(false)
      expect(resultText(result), path).toMatch(
        /^Refused (http:\/\/)?(internal\.example\.com|127\.0\.0\.1|169\.254\.169\.254)/,
      )
    }
    expect(received.map((request) => request.path)).not.toContain('/secret')
  })

  it('follows a same-host redirect, re-checking it', async () => {
    const resolver = dns()
    const result = await tool({ resolver }).call(
      { url: intranet('/same-host-redirect'), prompt: 'x' },
      ctx(),
      signal,
    )
    expect(resultText(result)).toContain(`URL: ${intranet('/plain')}`)
    expect(received.map((request) => request.path)).toEqual(['/same-host-redirect', '/plain'])
    expect(resolver.asked).toEqual(['intranet.example.com', 'intranet.example.com'])
  })

  it('reports a redirect to another host instead of following it', async () => {
    const result = await tool().call({ url: intranet('/redirect-to-other-host'), prompt: 'x' }, ctx(), signal)
    expect(result.ok).toBe(true)
    expect(resultText(result)).toContain(
      'redirects (HTTP 302) to another host: https://docs.example.org/moved',
    )
    expect(resultText(result)).toContain('call WebFetch again with url "https://docs.example.org/moved"')
  })

  it('stops a redirect loop at the hop limit', async () => {
    const result = await tool({ maxRedirects: 3 }).call(
      { url: intranet('/loop'), prompt: 'x' },
      ctx(),
      signal,
    )
    expect(resultText(result)).toContain('Stopped after 3 redirects')
    expect(received).toHaveLength(4)
  })
})

describe('WebFetch content', () => {
  it('converts HTML to markdown and, with no side model, returns it under the URL and title', async () => {
    const result = await tool().call(
      { url: intranet('/docs'), prompt: 'How do I set the cache dir?' },
      ctx(),
      signal,
    )
    const text = resultText(result)
    expect(text).toMatch(
      /^URL: http:\/\/intranet\.example\.com:\d+\/docs\nTitle: Configuring caches — Acme Build/,
    )
    expect(text).toContain('# Configuring caches')
    expect(text).toContain(`[cache.dir](http://intranet.example.com:${port}/reference/settings/#cache-dir)`)
    expect(text).not.toContain('dataLayer')
    // Issue 21: without a fast model the result says the page itself is returned, and why.
    expect(text).toContain(
      'No fast model is configured (`model.fast` in settings), so this is the page itself: read it to answer the prompt.',
    )
    expect(result.ok && result.output.details).toMatchObject({ extracted: false, answeredBy: 'page' })
  })

  it('answers the prompt through the side model, giving it the page and the prompt', async () => {
    const sideModel = new RecordingSideModel(() => 'Set `cache.dir` in the [cache] table.')
    const result = await tool().call(
      { url: intranet('/docs'), prompt: 'How do I set the cache dir?' },
      ctx({ ports: { sideModel } }),
      signal,
    )
    expect(resultText(result)).toContain('Set `cache.dir` in the [cache] table.')
    expect(resultText(result)).not.toContain('# Configuring caches')
    // Issue 21: the result says the fast model answered, and for which prompt.
    expect(resultText(result)).toContain(
      'Answered by the fast model from the page, for the prompt: How do I set the cache dir?',
    )
    expect(result.ok && result.output.details).toMatchObject({ extracted: true, answeredBy: 'fast_model' })
    expect(sideModel.prompts).toHaveLength(1)
    expect(sideModel.prompts[0]).toContain('How do I set the cache dir?')
    expect(sideModel.prompts[0]).toContain('dir = "/mnt/fast/acme-cache"')
    expect(sideModel.prompts[0]).toContain(`fetched from ${intranet('/docs')}`)
  })

  it('falls back to the page when the side model fails', async () => {
    const sideModel = new RecordingSideModel(() => {
      throw new Error('model overloaded')
    })
    const result = await tool().call(
      { url: intranet('/plain'), prompt: 'x' },
      ctx({ ports: { sideModel } }),
      signal,
    )
    expect(resultText(result)).toContain('just text')
    expect(resultText(result)).toContain('This is the page itself: read it to answer the prompt.')
    expect(resultText(result)).toContain(
      'The fast model failed (model overloaded), so this is the page itself.',
    )
  })

  it('gives the side model at most maxContentChars and spills the whole page', async () => {
    const sideModel = new RecordingSideModel(() => 'answer')
    const context = ctx({ ports: { sideModel } })
    const result = await tool({ maxContentChars: 500 }).call(
      { url: intranet('/long'), prompt: 'x' },
      context,
      signal,
    )
    expect(sideModel.prompts[0]).toContain('[... page truncated:')
    expect(sideModel.prompts[0]).not.toContain('line 2000 of')
    expect(context.spilled).toHaveLength(1)
    expect(context.spilled[0]!.content).toContain('line 2000 of the long page')
    expect(resultText(result)).toContain(`The full page is saved at ${context.spilled[0]!.path}`)
  })

  it('shortens a long page to the result limit with a marker and spills the full text', async () => {
    const context = ctx({ limits: { maxResultChars: 1000 } })
    const result = await tool().call({ url: intranet('/long'), prompt: 'x' }, context, signal)
    const text = resultText(result)
    expect(text).toContain('line 1 of the long page')
    expect(text).not.toContain('line 2000 of the long page')
    expect(text).toMatch(/\[\.\.\. \d+ lines omitted \.\.\.\]/)
    expect(context.spilled[0]!.content).toContain('line 2000 of the long page')
    expect(text).toContain(context.spilled[0]!.path)
  })

  it('caps the download at maxBytes and says so', async () => {
    const result = await tool({ maxBytes: 100 }).call({ url: intranet('/long'), prompt: 'x' }, ctx(), signal)
    const text = resultText(result)
    expect(text).toContain('line 1 of the long page')
    expect(text).not.toContain('line 10 of')
    expect(text).toContain('only its beginning was read')
  })

  it('decompresses gzip and honours the declared charset', async () => {
    expect(resultText(await tool().call({ url: intranet('/gzip'), prompt: 'x' }, ctx(), signal))).toContain(
      'Title: Zipped\n\nNo fast model is configured (`model.fast` in settings), so this is the page itself: read it to answer the prompt.\n\ncompressed **page**',
    )
    expect(resultText(await tool().call({ url: intranet('/latin1'), prompt: 'x' }, ctx(), signal))).toContain(
      'café',
    )
  })

  it('refuses binary content and reports HTTP errors', async () => {
    const image = await tool().call({ url: intranet('/image'), prompt: 'x' }, ctx(), signal)
    expect(resultText(image)).toContain('is image/png, not a text page')
    const missing = await tool().call({ url: intranet('/missing'), prompt: 'x' }, ctx(), signal)
    expect(missing.ok).toBe(false)
    expect(resultText(missing)).toContain('answered HTTP 404 Not Found')
  })

  it('times out a server that never answers', async () => {
    const result = await tool({ timeoutMs: 300 }).call({ url: intranet('/slow'), prompt: 'x' }, ctx(), signal)
    expect(resultText(result)).toContain('timed out after 300 ms')
  })

  it('stops when the call is cancelled', async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 50)
    const result = await tool().call({ url: intranet('/slow'), prompt: 'x' }, ctx(), controller.signal)
    expect(result.ok).toBe(false)
    expect(resultText(result)).toBe('The fetch was cancelled.')
  })

  it('reports an unresolvable host', async () => {
    const result = await tool().call({ url: 'https://nowhere.example.net/', prompt: 'x' }, ctx(), signal)
    expect(resultText(result)).toBe(
      "Could not resolve the host nowhere.example.net; check the URL's spelling.",
    )
  })
})

describe('WebFetch cache and contract', () => {
  it('serves a page from the cache for 15 minutes, then fetches it again', async () => {
    let now = 0
    const cached = tool({ cache: new PageCache(15 * 60_000, 50, () => now) })
    await cached.call({ url: intranet('/plain'), prompt: 'a' }, ctx(), signal)
    now += 14 * 60_000
    const again = await cached.call({ url: intranet('/plain'), prompt: 'b' }, ctx(), signal)
    expect(again.ok && again.output.details?.cached).toBe(true)
    // Only this test's page counts: a cancelled /slow request of an earlier test may land late on a
    // loaded machine.
    const plain = () => received.filter((request) => request.path === '/plain')
    expect(plain()).toHaveLength(1)
    now += 2 * 60_000
    await cached.call({ url: intranet('/plain'), prompt: 'c' }, ctx(), signal)
    expect(plain()).toHaveLength(2)
  })

  it('maps to a fetch action, is read-only and concurrency-safe', () => {
    const webFetch = tool()
    const input = { url: 'https://docs.example.org/a', prompt: 'x' }
    expect(webFetch.action(input, ctx())).toEqual({ type: 'fetch', url: 'https://docs.example.org/a' })
    expect(webFetch.isReadOnly(input)).toBe(true)
    expect(webFetch.isConcurrencySafe(input)).toBe(true)
    expect(webFetch.title(input, ctx())).toBe('Fetch https://docs.example.org/a')
    expect(webFetch.description()).toContain('web.allowed_private_hosts')
  })
})
