import type { IncomingMessage, ServerResponse } from 'node:http'
import { isStorageUnavailable, storageUnavailable } from '../storage/unavailable.js'
import { newRequestId } from '../wire/ids.js'
import { admitRequest } from './admit-request.js'
import type { RateLimiter } from './auth.js'
import { sendError } from './io.js'
import type { Logger } from './log.js'
import type { ServerOptions, ServerState } from './server-options.js'

/**
 * One HTTP request from start to end: its id headers and log lines, its abort when the client goes
 * away, a failure as a 500 (or a 503 while storage is unavailable), and its metrics and log line
 * once settled. The request counts as in flight for the drain until then.
 */
export function serveRequest(
  options: ServerOptions,
  state: ServerState,
  limiter: RateLimiter,
  req: IncomingMessage,
  res: ServerResponse,
): void {
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
  const incoming = {
    req,
    res,
    url,
    requestId,
    log,
    signal: controller.signal,
    onRoute: (label: string) => {
      routeLabel = label
    },
  }
  const done = admitRequest(options, state, limiter, incoming)
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
      state.inflight.delete(controller)
      options.metrics.request(req.method ?? 'GET', routeLabel, res.statusCode, (Date.now() - started) / 1000)
      log({
        level: 'info',
        msg: 'request',
        method: req.method,
        path: url.pathname,
        status: res.statusCode,
        ms: Date.now() - started,
      })
    })
  state.inflight.set(controller, done)
}
