/** The gateway's HTTP server: routing, authentication, request tracking and graceful shutdown. */

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { GatewayConfig } from '../config.js'
import type { Executor } from '../executor/executor.js'
import { isStorageUnavailable, storageUnavailable } from '../storage/unavailable.js'
import type { Upstream } from '../upstream/upstream.js'
import { newRequestId } from '../wire/ids.js'
import { type Authenticator, type AuthFailure, type Principal, RateLimiter } from './auth.js'
import { sendError } from './io.js'
import type { Logger } from './log.js'
import { loopbackRefusal } from './loopback-guard.js'
import { sendAnthropicError } from './messages-routes.js'
import type { Metrics } from './metrics.js'
import { matchRoute } from './routes.js'
import { createWebSocketEndpoint } from './websocket.js'

/** A listening gateway. */
export interface GatewayServer {
  /** `http://host:port` (the OpenAI SDK's baseURL is this plus `/v1`). */
  url: string
  port: number
  /** Stops accepting, lets open requests finish (up to `drainTimeoutMs`), cancels the rest, closes storage. */
  close(): Promise<void>
}

/** Starts the HTTP server on `host:port` (port 0: any free port). */
export async function startHttpServer(options: {
  executor: Executor
  upstream: Upstream
  config: GatewayConfig
  log: Logger
  authenticator: Authenticator
  metrics: Metrics
  host: string
  port: number
}): Promise<GatewayServer> {
  const { executor, upstream, config, authenticator } = options
  const limiter = new RateLimiter()
  const inflight = new Map<AbortController, Promise<void>>()
  let closing = false

  const server: Server = createServer((req, res) => {
    const started = Date.now()
    const url = new URL(req.url ?? '/', 'http://gateway')
    const requestId = newRequestId()
    // Both spellings: OpenAI clients read x-request-id, Anthropic clients request-id.
    res.setHeader('x-request-id', requestId)
    res.setHeader('request-id', requestId)
    const log: Logger = (record) => options.log({ ...record, request_id: requestId })
    const controller = new AbortController()
    // The route's pattern, not the path: ids would make a series per response.
    let routeLabel = 'unmatched'
    res.on('close', () => {
      if (!res.writableFinished) controller.abort()
    })
    const handle = async (): Promise<void> => {
      if (closing) {
        res.setHeader('connection', 'close')
        return sendError(res, { status: 503, type: 'server_error', message: 'The gateway is shutting down.' })
      }
      // Keyless mode: a web page must not drive the gateway (DNS rebinding, cross-site POST).
      const foreign = authenticator.required ? undefined : loopbackRefusal(req.headers, options.host)
      if (foreign !== undefined)
        return sendError(res, {
          status: 403,
          type: 'invalid_request_error',
          message: foreign,
          code: 'forbidden_host',
        })
      const match = matchRoute(req.method ?? 'GET', url.pathname)
      if (typeof match === 'object') routeLabel = `/${match.route.pattern.join('/')}`
      if (match === 'malformed')
        return sendError(res, {
          status: 400,
          type: 'invalid_request_error',
          message: `The path ${url.pathname} has a malformed percent-encoded segment.`,
        })
      if (match === 'not_found')
        return sendError(res, {
          status: 404,
          type: 'not_found_error',
          message: `No route for ${req.method} ${url.pathname}.`,
        })
      if (match === 'method_not_allowed')
        return sendError(res, {
          status: 405,
          type: 'invalid_request_error',
          message: `${req.method} is not allowed on ${url.pathname}.`,
        })
      const refuse = match.route.errors === 'anthropic' ? sendAnthropicError : sendError
      const principal: Principal | AuthFailure = match.route.open
        ? { tenant: '', subject: 'probe', via: 'none' }
        : await authenticator.authenticate(req.headers)
      if ('status' in principal)
        return refuse(res, {
          status: principal.status,
          type: principal.status === 401 ? 'authentication_error' : 'server_error',
          message: principal.message,
          code: principal.status === 401 ? 'invalid_api_key' : 'auth_unavailable',
        })
      if (principal.requestsPerMinute !== undefined) {
        const taken = limiter.take(principal.subject, principal.requestsPerMinute)
        if (!taken.ok) {
          res.setHeader('retry-after', String(taken.retryAfter))
          return refuse(res, {
            status: 429,
            type: 'rate_limit_error',
            message: `Rate limit of ${principal.requestsPerMinute} requests per minute reached for '${principal.subject}'; retry in ${taken.retryAfter} s.`,
            code: 'rate_limit_exceeded',
          })
        }
      }
      await match.route.handler({
        req,
        res,
        params: match.params,
        query: url.searchParams,
        executor,
        metrics: options.metrics,
        upstream,
        config,
        log,
        signal: controller.signal,
        principal,
        requestId,
        maxRequestBytes: Math.min(
          config.limits.maxRequestBytes,
          principal.maxRequestBytes ?? Number.POSITIVE_INFINITY,
        ),
      })
    }
    const done = handle()
      .catch((error: unknown) => {
        const unavailable = isStorageUnavailable(error)
        log({
          level: unavailable ? 'warn' : 'error',
          msg: unavailable ? 'storage unavailable' : 'request failed',
          path: url.pathname,
          error: (error as Error).message,
        })
        if (res.headersSent) {
          res.destroy()
          return
        }
        if (unavailable) res.setHeader('retry-after', '1')
        sendError(
          res,
          unavailable
            ? storageUnavailable(error)
            : { status: 500, type: 'server_error', message: 'The gateway failed to handle the request.' },
        )
      })
      .finally(() => {
        inflight.delete(controller)
        options.metrics.request(
          req.method ?? 'GET',
          routeLabel,
          res.statusCode,
          (Date.now() - started) / 1000,
        )
        log({
          level: 'info',
          msg: 'request',
          method: req.method,
          path: url.pathname,
          status: res.statusCode,
          ms: Date.now() - started,
        })
      })
    inflight.set(controller, done)
  })
  server.keepAliveTimeout = 5000
  const websockets = createWebSocketEndpoint({ executor, config, authenticator, log: options.log })
  server.on('upgrade', (req, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://gateway').pathname
    if (closing) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: 0\r\n\r\n')
      return
    }
    if (!authenticator.required && loopbackRefusal(req.headers, options.host) !== undefined) {
      socket.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\ncontent-length: 0\r\n\r\n')
      return
    }
    if (req.method !== 'GET' || path !== '/v1/responses') {
      socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n')
      return
    }
    websockets.handleUpgrade(req, socket, head)
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const host = options.host.includes(':') ? `[${options.host}]` : options.host
  return {
    url: `http://${host}:${port}`,
    port,
    async close() {
      closing = true
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      const drained = Promise.all(inflight.values()).then(() => true)
      const timedOut = new Promise<false>((resolve) =>
        setTimeout(() => resolve(false), config.drainTimeoutMs).unref(),
      )
      if (!(await Promise.race([drained, timedOut]))) {
        options.log({ level: 'warn', msg: 'drain timed out; cancelling open requests', open: inflight.size })
        for (const controller of inflight.keys()) controller.abort()
        await Promise.all(inflight.values())
      }
      await websockets.close(config.drainTimeoutMs)
      // Background responses get the same grace; the executor cancels those still running as it closes.
      if (!(await executor.drainBackground(config.drainTimeoutMs)))
        options.log({ level: 'warn', msg: 'drain timed out; cancelling background responses' })
      server.closeAllConnections()
      await stopped
      await executor.close()
    },
  }
}
