import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import type { LookupFunction } from 'node:net'
import type { Readable } from 'node:stream'
import type { ResolvedAddress } from './resolver.js'

type Zlib = typeof import('node:zlib')

/** One HTTP GET, connected to an address that was already checked. */
export interface PinnedRequest {
  url: URL
  /** The checked address the socket must connect to, whatever DNS says now (no rebinding). */
  address: ResolvedAddress
  headers: Record<string, string>
  /** Bytes of (decompressed) body kept; the rest is dropped and `truncated` is set. */
  maxBytes: number
  signal: AbortSignal
  /** Certificates trusted besides the system's (an intranet CA), PEM. */
  extraCaCertificates?: readonly string[]
}

/** What came back from one hop. */
export interface PinnedResponse {
  status: number
  statusText: string
  headers: IncomingHttpHeaders
  body: Buffer
  /** The body was longer than `maxBytes`. */
  truncated: boolean
}

/**
 * Sends one GET to `url` over a socket pinned to `address`: the connection's `lookup` answers with
 * the checked address, so a second DNS answer can't redirect the socket, while the Host header and
 * TLS (SNI and certificate check) still use the URL's host name. Never follows redirects. Rejects
 * on network errors and on abort.
 */
export async function pinnedGet(request: PinnedRequest): Promise<PinnedResponse> {
  const { url, address } = request
  // Loaded on the first fetch, not at startup: `http`, `https` and `tls` cost the CLI ≈10 ms of
  // module evaluation before its first model request, which never needs them (issue 17).
  const [http, https, tls, zlib] = await Promise.all([
    import('node:http'),
    import('node:https'),
    import('node:tls'),
    import('node:zlib'),
  ])
  const lookup: LookupFunction = (_hostname, options, callback) => {
    // Node asks for every address (`all`) when it races IPv4 and IPv6 (autoSelectFamily).
    if (options.all === true) {
      ;(callback as unknown as (error: null, addresses: Array<{ address: string; family: number }>) => void)(
        null,
        [{ address: address.address, family: address.family }],
      )
    } else {
      callback(null, address.address, address.family)
    }
  }
  const send = url.protocol === 'https:' ? https.request : http.request
  return new Promise<PinnedResponse>((resolve, reject) => {
    const outgoing = send(url, {
      method: 'GET',
      headers: request.headers,
      lookup,
      // A fresh socket per hop: a pooled one may be connected to an address checked for another host.
      agent: false,
      signal: request.signal,
      // `ca` replaces the default roots, so extra CAs are added to them, never instead of them.
      ...(request.extraCaCertificates === undefined || request.extraCaCertificates.length === 0
        ? {}
        : { ca: [...tls.rootCertificates, ...request.extraCaCertificates] }),
    })
    outgoing.on('error', reject)
    outgoing.on('response', (incoming) => {
      readBody(incoming, request.maxBytes, zlib).then(
        ({ body, truncated }) =>
          resolve({
            status: incoming.statusCode ?? 0,
            statusText: incoming.statusMessage ?? '',
            headers: incoming.headers,
            body,
            truncated,
          }),
        reject,
      )
    })
    outgoing.end()
  })
}

/** Reads the body, decompressing it, and stops at `maxBytes` of decompressed data (no zip bombs). */
function readBody(
  incoming: IncomingMessage,
  maxBytes: number,
  zlib: Zlib,
): Promise<{ body: Buffer; truncated: boolean }> {
  const stream = decoded(incoming, zlib)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    const finish = (truncated: boolean) => {
      if (settled) return
      settled = true
      resolve({ body: Buffer.concat(chunks), truncated })
    }
    stream.on('data', (chunk: Buffer) => {
      if (settled) return
      if (size + chunk.length > maxBytes) {
        chunks.push(chunk.subarray(0, maxBytes - size))
        finish(true)
        incoming.destroy()
        if (stream !== incoming) stream.destroy()
        return
      }
      chunks.push(chunk)
      size += chunk.length
    })
    stream.on('end', () => finish(false))
    stream.on('error', (error) => {
      if (settled) return
      settled = true
      reject(error)
    })
    incoming.on('error', (error) => {
      if (settled) return
      settled = true
      reject(error)
    })
  })
}

function decoded(incoming: IncomingMessage, zlib: Zlib): Readable {
  const encoding = String(incoming.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase()
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return incoming.pipe(zlib.createGunzip())
    case 'deflate':
      return incoming.pipe(zlib.createInflate())
    case 'br':
      return incoming.pipe(zlib.createBrotliDecompress())
    default:
      return incoming
  }
}
