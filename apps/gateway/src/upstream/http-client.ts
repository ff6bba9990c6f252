/**
 * The gateway's HTTP client for the inference server: `node:http`/`node:https` over keep-alive agents.
 * It replaced `fetch` on the request path (issue 37): under 200 concurrent streams, undici's fetch and
 * its web streams were the largest CPU cost of a streamed response after the upstream itself; a
 * response body here is the `IncomingMessage`, read as the Node stream it is.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { bodyChunks, pushChunks } from './body-reader.js'
import type { ChunkSource } from './chunk-source.js'

// One pool per process; sockets stay open between rounds and requests (no limit: streams are long).
const httpAgent = new HttpAgent({ keepAlive: true })
const httpsAgent = new HttpsAgent({ keepAlive: true })

/** An upstream silent this long (no head, or no byte of a body) is given up: `fetch`'s own limits were 300 s. */
export const UPSTREAM_IDLE_TIMEOUT_MS = 300_000

/** What a request sends. */
export interface HttpRequestInit {
  method: 'GET' | 'POST'
  headers: Record<string, string>
  body?: string | Buffer
}

/** An answer whose head arrived; the body is read (or cancelled) by the caller. */
export class HttpReply {
  readonly #message: IncomingMessage

  constructor(message: IncomingMessage) {
    this.#message = message
  }

  /** The HTTP status. */
  get status(): number {
    return this.#message.statusCode ?? 0
  }

  /** A 2xx status. */
  get ok(): boolean {
    return this.status >= 200 && this.status < 300
  }

  /** A response header (lower-case name), or null. */
  header(name: string): string | null {
    const value = this.#message.headers[name.toLowerCase()]
    if (value === undefined) return null
    return Array.isArray(value) ? value.join(', ') : value
  }

  /** The body's bytes as they arrive; an abort or a broken connection throws from the iteration. */
  get body(): AsyncIterable<Uint8Array> {
    const message = this.#message
    return { [Symbol.asyncIterator]: () => bodyChunks(message) }
  }

  /** The body pushed chunk by chunk (the streamed path: no promise per chunk). */
  get chunks(): ChunkSource {
    const message = this.#message
    return { read: (onChunk) => pushChunks(message, onChunk) }
  }

  /** Drops the body (frees the socket; the agent does not reuse one whose body was not read). */
  cancel(): void {
    this.#message.destroy()
  }
}

/** The last URL parsed: every round asks the same upstream URL, parsed once rather than per request. */
let lastUrl: { text: string; url: URL } | undefined

function parsedUrl(text: string): URL {
  if (lastUrl?.text !== text) lastUrl = { text, url: new URL(text) }
  return lastUrl.url
}

/**
 * Sends one request; resolves when the head arrives, rejects when no answer comes. `signal` aborts the
 * request and its body while the body is unfinished; once the whole body has arrived an abort changes
 * nothing (the socket stays in the pool).
 */
export function sendHttp(url: string, init: HttpRequestInit, signal?: AbortSignal): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new Error('The request was aborted.'))
      return
    }
    const target = parsedUrl(url)
    const https = target.protocol === 'https:'
    let message: IncomingMessage | undefined
    const request = (https ? httpsRequest : httpRequest)(
      target,
      {
        method: init.method,
        headers:
          init.body === undefined
            ? init.headers
            : { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) },
        agent: https ? httpsAgent : httpAgent,
        timeout: UPSTREAM_IDLE_TIMEOUT_MS,
      },
      (answer) => {
        message = answer
        answer.once('end', release)
        resolve(new HttpReply(answer))
      },
    )
    const abort = (): void => {
      if (!message?.complete) request.destroy(new Error('The request was aborted.'))
    }
    function release(): void {
      signal?.removeEventListener('abort', abort)
    }
    signal?.addEventListener('abort', abort, { once: true })
    request.once('close', release)
    request.on('timeout', () =>
      request.destroy(new Error(`the upstream sent nothing for ${UPSTREAM_IDLE_TIMEOUT_MS / 1000} s`)),
    )
    request.on('error', reject)
    request.end(init.body)
  })
}
