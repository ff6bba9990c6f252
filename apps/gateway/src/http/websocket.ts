/**
 * The WebSocket transport on `GET /v1/responses` (upgrade): one long-lived session per connection.
 * Client messages are JSON text frames:
 *
 * - `{"type": "response.create", ...POST /v1/responses fields, "stream_id"?}` — always streamed; every
 *   event comes back as one frame (the SSE payload, plus `stream_id` when given). Requests with the
 *   same `stream_id` (or none) run FIFO in one lane; distinct lanes run concurrently.
 * - `{"type": "response.inject", "response_id", "input": [function_call_output…], "stream_id"?}` —
 *   answers the client tool calls a response of this connection stopped at; the gateway continues it
 *   as a new response on that lane. Failures come back as `response.inject.failed` with `code`
 *   `response_not_found`, `response_already_completed` or `invalid_input`, and the input unchanged.
 *
 * The session retains each response's canonical window in memory (bounded by member count and bytes,
 * oldest evicted first), so `store: false` responses can be continued on the same connection without
 * storage. Admission is bounded (64 active or queued requests, 12 MiB of request data); identity
 * expiry is rechecked before each request starts; writes wait for the socket (backpressure).
 * Close codes: 1000 on a client close, 1001 on shutdown, 1007 for a frame that is not a JSON message
 * of a known type, 1008 when the token expired, 1009 for an oversize frame (ws), 1011 on a gateway fault.
 */
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { type WebSocket, WebSocketServer } from 'ws'
import type { GatewayConfig } from '../config.js'
import type { Executor } from '../executor/executor.js'
import type { ResponseSession } from '../executor/rehydrate.js'
import type { TurnSink } from '../executor/turn.js'
import { errorBody, type GatewayError } from '../wire/errors.js'
import { newRequestId } from '../wire/ids.js'
import { isObject, type JsonObject, jsonBytes } from '../wire/json.js'
import { type CreateResponseRequest, parseCreateResponse } from '../wire/request.js'
import type { Authenticator, Principal } from './auth.js'
import type { Logger } from './log.js'

/** Session ceilings (the spec's: 64 requests, 12 MiB of request data). */
export const WS_LIMITS = {
  maxQueuedRequests: 64,
  maxQueuedBytes: 12 * 1024 * 1024,
  /** Responses whose windows a session retains. */
  maxRetainedResponses: 64,
  /** Bytes of retained windows per session. */
  maxRetainedBytes: 16 * 1024 * 1024,
} as const

interface Retained {
  window: JsonObject[]
  bytes: number
  request: CreateResponseRequest
  pendingCalls: Set<string>
}

/** Retained response state of one connection, oldest evicted first past the bounds. */
class RetainedResponses implements ResponseSession {
  readonly #entries = new Map<string, Retained>()
  #bytes = 0

  window(id: string): JsonObject[] | undefined {
    return this.#entries.get(id)?.window
  }

  get(id: string): Retained | undefined {
    return this.#entries.get(id)
  }

  retain(id: string, window: JsonObject[], request: CreateResponseRequest, response: JsonObject): void {
    const answered = new Set(
      window.filter((item) => item.type === 'function_call_output').map((item) => String(item.call_id)),
    )
    const output = Array.isArray(response.output) ? response.output.filter(isObject) : []
    const pendingCalls = new Set(
      output
        .filter((item) => item.type === 'function_call' && !answered.has(String(item.call_id)))
        .map((item) => String(item.call_id)),
    )
    const bytes = jsonBytes(window)
    this.#entries.set(id, { window, bytes, request, pendingCalls })
    this.#bytes += bytes
    for (const [key, entry] of this.#entries) {
      if (this.#entries.size <= WS_LIMITS.maxRetainedResponses && this.#bytes <= WS_LIMITS.maxRetainedBytes)
        break
      if (key === id) break
      this.#entries.delete(key)
      this.#bytes -= entry.bytes
    }
  }

  /** Marks a response's calls answered (its continuation was admitted). */
  settle(id: string): void {
    this.#entries.get(id)?.pendingCalls.clear()
  }

  get size(): number {
    return this.#entries.size
  }
}

/** A WebSocket endpoint attached to the HTTP server's upgrade event. */
export interface WebSocketEndpoint {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void
  /** Open sessions. */
  readonly sessions: number
  /** Lets running requests finish (up to `timeoutMs`), then closes every socket with 1001. */
  close(timeoutMs: number): Promise<void>
}

function rejectUpgrade(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify(errorBody({ status, type: 'authentication_error', message }))
  socket.end(
    `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Service Unavailable'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  )
}

/** Creates the endpoint. */
export function createWebSocketEndpoint(options: {
  executor: Executor
  config: GatewayConfig
  authenticator: Authenticator
  log: Logger
}): WebSocketEndpoint {
  const { executor, config, authenticator } = options
  const server = new WebSocketServer({ noServer: true, maxPayload: config.limits.maxRequestBytes })
  const open = new Set<{ socket: WebSocket; idle: () => Promise<void> }>()

  const session = (socket: WebSocket, principal: Principal, log: Logger): void => {
    const retained = new RetainedResponses()
    const lanes = new Map<string, Promise<void>>()
    const controller = new AbortController()
    let queued = 0
    let queuedBytes = 0
    let closing = false

    const write = (payload: JsonObject): Promise<boolean> =>
      new Promise((resolve) => {
        if (socket.readyState !== socket.OPEN) return resolve(false)
        const text = JSON.stringify(payload)
        // The callback fires once the frame is handed to the socket: awaiting it is the backpressure.
        socket.send(text, (error) => resolve(!error))
      })
    const closeWith = (code: number, reason: string): void => {
      if (closing) return
      closing = true
      controller.abort()
      socket.close(code, reason.slice(0, 120))
    }
    const errorEvent = (error: GatewayError, streamId: string | undefined): Promise<boolean> =>
      write({
        type: 'error',
        ...errorBody(error),
        ...(streamId === undefined ? {} : { stream_id: streamId }),
      })

    const run = async (request: CreateResponseRequest, streamId: string | undefined): Promise<void> => {
      if (principal.expiresAt !== undefined && principal.expiresAt * 1000 <= Date.now()) {
        await errorEvent(
          { status: 401, type: 'authentication_error', message: 'The token has expired.' },
          streamId,
        )
        closeWith(1008, 'token expired')
        return
      }
      const sink: TurnSink = {
        send: (_type, data) => write(streamId === undefined ? data : { ...data, stream_id: streamId }),
      }
      const result = await executor.createResponse(
        { ...request, stream: true },
        sink,
        controller.signal,
        principal.tenant,
        retained,
      )
      if (result.kind === 'error') await errorEvent(result.error, streamId)
    }

    const admit = (bytes: number, streamId: string | undefined, job: () => Promise<void>): boolean => {
      if (queued >= WS_LIMITS.maxQueuedRequests || queuedBytes + bytes > WS_LIMITS.maxQueuedBytes)
        return false
      queued += 1
      queuedBytes += bytes
      const lane = streamId ?? ''
      const previous = lanes.get(lane) ?? Promise.resolve()
      const next = previous
        .then(() => (closing ? undefined : job()))
        .catch((error: unknown) => {
          log({ level: 'error', msg: 'websocket request failed', error: (error as Error).message })
          closeWith(1011, 'gateway fault')
        })
        .finally(() => {
          queued -= 1
          queuedBytes -= bytes
          if (lanes.get(lane) === next) lanes.delete(lane)
        })
      lanes.set(lane, next)
      return true
    }

    const onMessage = async (data: Buffer, isBinary: boolean): Promise<void> => {
      let message: unknown
      try {
        message = isBinary ? undefined : JSON.parse(data.toString('utf8'))
      } catch {
        message = undefined
      }
      if (!isObject(message) || typeof message.type !== 'string') {
        closeWith(1007, 'frames must be JSON messages with a type')
        return
      }
      const streamId = typeof message.stream_id === 'string' ? message.stream_id : undefined
      const busy = (): Promise<boolean> =>
        errorEvent(
          {
            status: 429,
            type: 'rate_limit_error',
            message: `This connection already holds ${WS_LIMITS.maxQueuedRequests} requests or ${WS_LIMITS.maxQueuedBytes} bytes of them; wait for some to finish.`,
            code: 'session_busy',
          },
          streamId,
        )
      switch (message.type) {
        case 'response.create': {
          const { type: _type, stream_id: _stream, stream: _streamFlag, ...body } = message
          if (body.background === true) {
            await errorEvent(
              {
                status: 400,
                type: 'invalid_request_error',
                // OpenAI's WebSocket mode refuses it too: a response here streams on this connection and
                // is cancelled when it closes, the opposite of a detached background response.
                message:
                  'background is not supported over WebSocket: a response here streams on this connection and ends with it. Send background responses as POST /v1/responses, then retrieve, cancel or resume them over HTTP.',
                param: 'background',
                code: 'unsupported_parameter',
              },
              streamId,
            )
            return
          }
          const parsed = parseCreateResponse(body)
          if (!parsed.ok) {
            await errorEvent(parsed.error, streamId)
            return
          }
          if (!admit(data.length, streamId, () => run(parsed.value, streamId))) await busy()
          return
        }
        case 'response.inject': {
          const responseId = typeof message.response_id === 'string' ? message.response_id : undefined
          const input = message.input
          if (!responseId || !Array.isArray(input) || !input.every(isObject)) {
            closeWith(1007, 'response.inject needs response_id and an input list')
            return
          }
          const failed = (code: string, text: string): Promise<boolean> =>
            write({
              type: 'response.inject.failed',
              response_id: responseId,
              code,
              message: text,
              input,
              ...(streamId === undefined ? {} : { stream_id: streamId }),
            })
          const target = retained.get(responseId)
          if (!target)
            return void (await failed(
              'response_not_found',
              `No response ${responseId} is retained by this connection.`,
            ))
          if (target.pendingCalls.size === 0)
            return void (await failed(
              'response_already_completed',
              `${responseId} has no client tool calls waiting.`,
            ))
          const unknown = input.find(
            (item) => item.type !== 'function_call_output' || !target.pendingCalls.has(String(item.call_id)),
          )
          if (unknown)
            return void (await failed(
              'invalid_input',
              `Every injected item must be a function_call_output answering a pending call of ${responseId} (${[...target.pendingCalls].join(', ')}).`,
            ))
          const { raw } = target.request
          const continued = parseCreateResponse({
            ...Object.fromEntries(Object.entries(raw).filter(([key]) => key !== 'conversation')),
            input,
            previous_response_id: responseId,
          })
          if (!continued.ok) return void (await failed('invalid_input', continued.error.message))
          if (!admit(data.length, streamId, () => run(continued.value, streamId))) {
            await busy()
            return
          }
          retained.settle(responseId)
          return
        }
        default:
          closeWith(1007, `unknown message type ${message.type.slice(0, 40)}`)
      }
    }

    const idle = async (): Promise<void> => {
      while (lanes.size > 0) await Promise.all(lanes.values())
    }
    const entry = { socket, idle }
    open.add(entry)
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      void onMessage(data, isBinary)
    })
    socket.on('close', () => {
      closing = true
      controller.abort()
      open.delete(entry)
      log({ level: 'info', msg: 'websocket closed', responses: retained.size })
    })
    socket.on('error', () => socket.terminate())
  }

  return {
    handleUpgrade(req, socket, head) {
      const requestId = newRequestId()
      const log: Logger = (record) => options.log({ ...record, request_id: requestId })
      void authenticator.authenticate(req.headers).then((principal) => {
        if ('status' in principal) return rejectUpgrade(socket, principal.status, principal.message)
        server.handleUpgrade(req, socket, head, (ws) => {
          log({ level: 'info', msg: 'websocket open', path: '/v1/responses' })
          session(ws, principal, log)
        })
      })
    },
    get sessions() {
      return open.size
    },
    async close(timeoutMs) {
      const drained = Promise.all([...open].map((entry) => entry.idle()))
      await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())])
      for (const entry of open) entry.socket.close(1001, 'gateway shutting down')
      server.close()
    },
  }
}
