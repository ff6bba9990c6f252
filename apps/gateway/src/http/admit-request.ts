import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AuthFailure, Principal, RateLimiter } from './auth.js'
import { sendError } from './io.js'
import type { Logger } from './log.js'
import { loopbackRefusal } from './loopback-guard.js'
import { sendAnthropicError } from './messages-routes.js'
import { matchRoute } from './routes.js'
import type { ServerOptions, ServerState } from './server-options.js'

/** One request as the server took it in. */
export interface IncomingRequest {
  req: IncomingMessage
  res: ServerResponse
  url: URL
  requestId: string
  log: Logger
  signal: AbortSignal
  /** Told the route's pattern once one matches (a metrics label: ids would make a series per response). */
  onRoute: (label: string) => void
}

/**
 * Runs a request's route once it passes every gate, in order: shutdown, the keyless loopback
 * guard, routing, authentication, the caller's rate limit. A request refused on the way gets its
 * error in the route's dialect (OpenAI's, or Anthropic's for /v1/messages) once a route matched.
 */
export async function admitRequest(
  options: ServerOptions,
  state: ServerState,
  limiter: RateLimiter,
  incoming: IncomingRequest,
): Promise<void> {
  const { req, res, url } = incoming
  const { authenticator, config } = options
  if (state.closing) {
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
  if (typeof match === 'object') incoming.onRoute(`/${match.route.pattern.join('/')}`)
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
    executor: options.executor,
    metrics: options.metrics,
    upstream: options.upstream,
    config,
    log: incoming.log,
    signal: incoming.signal,
    principal,
    requestId: incoming.requestId,
    maxRequestBytes: Math.min(
      config.limits.maxRequestBytes,
      principal.maxRequestBytes ?? Number.POSITIVE_INFINITY,
    ),
  })
}
