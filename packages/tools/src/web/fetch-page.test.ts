import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { TLSSocket } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWebAdmission } from './admission.js'
import { type FetchPageOptions, fetchPage } from './fetch-page.js'
import type { HostResolver } from './resolver.js'

// A throwaway test CA and a certificate for intranet.example.com it signed (valid until 2126).
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8')
const testCa = fixture('ca.pem')

/** Server names (SNI) the HTTPS server saw, in order. */
const serverNames: string[] = []
let server: Server
let port = 0

beforeAll(async () => {
  server = createServer(
    { key: fixture('intranet.key'), cert: fixture('intranet.pem') },
    (request, response) => {
      serverNames.push((request.socket as TLSSocket).servername || '')
      response.writeHead(200, { 'content-type': 'text/plain' })
      response.end(`hello over TLS for ${request.headers.host}`)
    },
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const resolver: HostResolver = async (hostname) => {
  if (hostname === 'intranet.example.com' || hostname === 'other.example.com')
    return [{ address: '127.0.0.1', family: 4 }]
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
}

function options(extra: Partial<FetchPageOptions> = {}): FetchPageOptions {
  return {
    admission: createWebAdmission(['intranet.example.com', 'other.example.com']),
    resolver,
    // A ceiling for a loaded machine: no test here waits for it.
    timeoutMs: 30_000,
    maxBytes: 1024 * 1024,
    maxRedirects: 5,
    userAgent: 'test',
    ...extra,
  }
}

const signal = new AbortController().signal

describe('fetchPage over TLS with a pinned address', () => {
  it('verifies the certificate against the URL host name (SNI) while dialing the checked address', async () => {
    serverNames.length = 0
    const outcome = await fetchPage(
      `https://intranet.example.com:${port}/`,
      options({ extraCaCertificates: [testCa] }),
      signal,
    )
    expect(outcome.type).toBe('page')
    expect(outcome.type === 'page' && outcome.body.toString()).toBe(
      `hello over TLS for intranet.example.com:${port}`,
    )
    expect(serverNames).toEqual(['intranet.example.com'])
  })

  it('refuses a certificate from an unknown CA', async () => {
    const outcome = await fetchPage(`https://intranet.example.com:${port}/`, options(), signal)
    expect(outcome.type).toBe('failed')
    expect(outcome.type === 'failed' && outcome.reason).toContain(
      'The TLS certificate of intranet.example.com could not be verified',
    )
  })

  it('refuses a certificate for another name, though the address is the same', async () => {
    const outcome = await fetchPage(
      `https://other.example.com:${port}/`,
      options({ extraCaCertificates: [testCa] }),
      signal,
    )
    expect(outcome.type).toBe('failed')
    expect(outcome.type === 'failed' && outcome.reason).toMatch(
      /TLS certificate of other\.example\.com.*altnames/i,
    )
  })
})
