/** The gateway's HTTP server: routing, authentication, request tracking and graceful shutdown. */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { GatewayConfig } from '../config.js'
import type { Executor } from '../executor/executor.js'
import type { Upstream } from '../upstream/upstream.js'
import { bearerAllowed, sendError } from './io.js'
import type { Logger } from './log.js'
import { sendAnthropicError } from './messages-routes.js'
import { matchRoute } from './routes.js'

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
  host: string
  port: number
}): Promise<GatewayServer> {
  const { executor, upstream, config, log } = options
  const inflight = new Map<AbortController, Promise<void>>()
  let closing = false

  const server: Server = createServer((req, res) => {
    const started = Date.now()
    const url = new URL(req.url ?? '/', 'http://gateway')
    const controller = new AbortController()
    res.on('close', () => {
      if (!res.writableFinished) controller.abort()
    })
    const handle = async (): Promise<void> => {
      if (closing) {
        res.setHeader('connection', 'close')
        return sendError(res, { status: 503, type: 'server_error', message: 'The gateway is shutting down.' })
      }
      const match = matchRoute(req.method ?? 'GET', url.pathname)
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
      if (
        !match.route.open &&
        !bearerAllowed(req.headers.authorization, config.apiKeys, req.headers['x-api-key'])
      )
        return (match.route.errors === 'anthropic' ? sendAnthropicError : sendError)(res, {
          status: 401,
          type: 'authentication_error',
          message: 'Missing or invalid API key: send Authorization: Bearer <key>.',
          code: 'invalid_api_key',
        })
      await match.route.handler({
        req,
        res,
        params: match.params,
        query: url.searchParams,
        executor,
        upstream,
        config,
        log,
        signal: controller.signal,
      })
    }
    const done = handle()
      .catch((error: unknown) => {
        log({ level: 'error', msg: 'request failed', path: url.pathname, error: (error as Error).message })
        sendError(res, {
          status: 500,
          type: 'server_error',
          message: 'The gateway failed to handle the request.',
        })
      })
      .finally(() => {
        inflight.delete(controller)
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
        log({ level: 'warn', msg: 'drain timed out; cancelling open requests', open: inflight.size })
        for (const controller of inflight.keys()) controller.abort()
        await Promise.all(inflight.values())
      }
      server.closeAllConnections()
      await stopped
      await executor.close()
    },
  }
}
