/**
 * HTTP to the inference server's Responses API: retries with backoff on 429/5xx and connection
 * failures (only before a reply started), bounded JSON bodies, and upstream errors mapped to
 * OpenAI-shaped gateway errors.
 */
import type { GatewayConfig } from '../config.js'
import type { Metrics } from '../http/metrics.js'
import type { GatewayError } from '../wire/errors.js'
import { isObject } from '../wire/json.js'
import { chatToolsFor, responsesOfChatJson, toChatBody } from './chat-request.js'
import { responsesOfChatStream } from './chat-stream.js'
import type { ChunkSource } from './chunk-source.js'
import { HttpReply, type HttpRequestInit, sendHttp } from './http-client.js'

/** A reply that started: an SSE byte stream (pushed), or a parsed JSON body. */
export type UpstreamReply =
  | { kind: 'stream'; body: ChunkSource }
  | { kind: 'json'; body: unknown }
  | { kind: 'error'; error: GatewayError }

function delayFor(attempt: number, retryAfter: string | null, config: GatewayConfig): number {
  const { baseDelayMs, maxDelayMs } = config.retry
  const seconds = retryAfter === null ? Number.NaN : Number(retryAfter)
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, maxDelayMs)
  const exponential = baseDelayMs * 2 ** attempt
  return Math.min(exponential / 2 + Math.random() * (exponential / 2), maxDelayMs)
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done(): void {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    signal?.addEventListener('abort', done, { once: true })
  })
}

/** Reads a body up to `limit` bytes; undefined when it is larger. */
export async function readLimited(
  body: AsyncIterable<Uint8Array>,
  limit: number,
): Promise<Buffer | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.byteLength
    if (size > limit) return undefined
    chunks.push(Buffer.from(chunk))
  }
  return Buffer.concat(chunks)
}

async function errorOf(response: HttpReply, config: GatewayConfig): Promise<GatewayError> {
  const raw = await readLimited(response.body, 64 * 1024).catch(() => undefined)
  // A body over the limit was left unread: drop it rather than hold the socket.
  if (raw === undefined) response.cancel()
  let message = `The upstream inference server answered HTTP ${response.status}.`
  let code: string | null = null
  let param: string | null = null
  try {
    const parsed: unknown = raw ? JSON.parse(raw.toString('utf8')) : undefined
    const error =
      isObject(parsed) && isObject(parsed.error) ? parsed.error : isObject(parsed) ? parsed : undefined
    if (error && typeof error.message === 'string') message = `Upstream: ${error.message}`
    if (error && typeof error.code === 'string') code = error.code
    if (error && typeof error.param === 'string') param = error.param
  } catch {
    // Not JSON: the status says enough.
  }
  const status = response.status
  if (status === 429)
    return { status: 429, type: 'rate_limit_error', message, code: code ?? 'upstream_rate_limited' }
  if (status >= 500)
    return {
      status: 502,
      type: 'upstream_error',
      message: `${message} (after ${config.retry.maxRetries} retries)`,
      code,
    }
  // A 4xx is the client's request as the model server sees it: keep its status.
  return { status, type: 'invalid_request_error', message, param, code }
}

/** The inference server, as the gateway calls it. */
export class Upstream {
  readonly #config: GatewayConfig
  readonly #metrics: Metrics | undefined

  constructor(config: GatewayConfig, metrics?: Metrics) {
    this.#config = config
    this.#metrics = metrics
  }

  /** Counts a failure the client will see as an upstream error. */
  #failed(error: GatewayError): GatewayError {
    if (error.status !== 499) this.#metrics?.upstreamError(error.code ?? `http_${error.status}`)
    return error
  }

  #headers(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { ...extra }
    if (this.#config.upstreamApiKey) headers.authorization = `Bearer ${this.#config.upstreamApiKey}`
    return headers
  }

  /** Sends a request, retrying 429/5xx/connection failures; returns the first non-retryable answer. */
  async fetchWithRetry(
    path: string,
    init: HttpRequestInit,
    signal?: AbortSignal,
  ): Promise<HttpReply | GatewayError> {
    const { maxRetries } = this.#config.retry
    for (let attempt = 0; ; attempt++) {
      let response: HttpReply
      try {
        response = await sendHttp(`${this.#config.upstreamUrl}${path}`, init, signal)
      } catch (error) {
        if (signal?.aborted) return { status: 499, type: 'server_error', message: 'The client went away.' }
        if (attempt >= maxRetries)
          return {
            status: 502,
            type: 'upstream_error',
            message: `The upstream inference server at ${this.#config.upstreamUrl} is unreachable (${(error as Error).message}); check that it is running and reachable from the gateway, and --upstream.`,
            code: 'upstream_unreachable',
          }
        await sleep(delayFor(attempt, null, this.#config), signal)
        continue
      }
      const retryable = response.status === 429 || response.status >= 500
      if (!retryable || attempt >= maxRetries) return response
      response.cancel()
      await sleep(delayFor(attempt, response.header('retry-after'), this.#config), signal)
      if (signal?.aborted) return { status: 499, type: 'server_error', message: 'The client went away.' }
    }
  }

  /** One round: `POST /responses`, or `POST /chat/completions` translated both ways. */
  async createResponse(body: Record<string, unknown>, signal?: AbortSignal): Promise<UpstreamReply> {
    const chat = this.#config.upstreamApi === 'chat'
    const kinds = chat ? chatToolsFor(body).kinds : new Map()
    const response = await this.fetchWithRetry(
      chat ? '/chat/completions' : '/responses',
      {
        method: 'POST',
        headers: this.#headers({
          'content-type': 'application/json',
          accept: 'text/event-stream, application/json',
        }),
        body: JSON.stringify(chat ? toChatBody(body) : body),
      },
      signal,
    )
    if (!(response instanceof HttpReply)) return { kind: 'error', error: this.#failed(response) }
    if (!response.ok) return { kind: 'error', error: this.#failed(await errorOf(response, this.#config)) }
    if (body.stream === true)
      return {
        kind: 'stream',
        body: chat
          ? responsesOfChatStream(response.chunks, this.#config.limits.maxSseLineBytes, kinds)
          : response.chunks,
      }
    const raw = await readLimited(response.body, this.#config.limits.maxUpstreamJsonBytes)
    if (raw === undefined) response.cancel()
    if (raw === undefined)
      return {
        kind: 'error',
        error: {
          status: 502,
          type: 'upstream_error',
          message: `The upstream JSON body exceeded ${this.#config.limits.maxUpstreamJsonBytes} bytes (maxUpstreamJsonBytes).`,
          code: 'max_upstream_json_bytes',
        },
      }
    try {
      const parsed: unknown = JSON.parse(raw.toString('utf8'))
      return { kind: 'json', body: chat ? responsesOfChatJson(parsed, kinds) : parsed }
    } catch {
      return {
        kind: 'error',
        error: {
          status: 502,
          type: 'upstream_error',
          message: 'The upstream body is not valid JSON.',
          code: 'upstream_protocol',
        },
      }
    }
  }

  /** `GET /models`, parsed (the gateway serves the upstream's list). */
  async models(
    signal?: AbortSignal,
  ): Promise<{ ok: true; body: unknown } | { ok: false; error: GatewayError }> {
    const response = await this.fetchWithRetry('/models', { method: 'GET', headers: this.#headers() }, signal)
    if (!(response instanceof HttpReply)) return { ok: false, error: response }
    if (!response.ok) return { ok: false, error: await errorOf(response, this.#config) }
    const raw = await readLimited(response.body, this.#config.limits.maxUpstreamJsonBytes)
    if (raw === undefined) response.cancel()
    try {
      return { ok: true, body: JSON.parse(raw?.toString('utf8') ?? '') }
    } catch {
      return {
        ok: false,
        error: { status: 502, type: 'upstream_error', message: 'Upstream /models is not JSON.' },
      }
    }
  }

  /** One quick reachability probe (no retries) for readiness. */
  async reachable(timeoutMs: number): Promise<boolean> {
    try {
      const response = await fetch(`${this.#config.upstreamUrl}/models`, {
        headers: this.#headers(),
        signal: AbortSignal.timeout(timeoutMs),
      })
      await response.body?.cancel().catch(() => {})
      return response.status < 500
    } catch {
      return false
    }
  }

  /** Forwards a request unchanged (the pass-through path) and returns the raw upstream response. */
  async forward(
    path: string,
    body: Buffer,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<HttpReply | GatewayError> {
    const response = await this.fetchWithRetry(
      path,
      { method: 'POST', headers: this.#headers(headers), body },
      signal,
    )
    if (!(response instanceof HttpReply)) return this.#failed(response)
    if (response.status >= 500 || response.status === 429)
      this.#metrics?.upstreamError(`http_${response.status}`)
    return response
  }
}
