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
import { WebSocketServer } from 'ws'
import type { GatewayConfig } from '../config.js'
import type { Executor } from '../executor/executor.js'
import { errorBody } from '../wire/errors.js'
import { newRequestId } from '../wire/ids.js'
import type { Authenticator } from './auth.js'
import type { Logger } from './log.js'
import { WebSocketSession } from './websocket-session.js'

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
  const open = new Set<WebSocketSession>()

  return {
    handleUpgrade(req, socket, head) {
      const requestId = newRequestId()
      const log: Logger = (record) => options.log({ ...record, request_id: requestId })
      void authenticator.authenticate(req.headers).then((principal) => {
        if ('status' in principal) return rejectUpgrade(socket, principal.status, principal.message)
        server.handleUpgrade(req, socket, head, (ws) => {
          log({ level: 'info', msg: 'websocket open', path: '/v1/responses' })
          const session: WebSocketSession = new WebSocketSession(ws, principal, executor, log, () =>
            open.delete(session),
          )
          open.add(session)
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
