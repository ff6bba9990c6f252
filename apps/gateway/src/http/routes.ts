/** The HTTP routes: parse, call the executor (never storage), render JSON, SSE or OpenAI errors. */
import type { ServerResponse } from 'node:http'
import { BackgroundRun } from '../executor/background.js'
import type { ListOptions } from '../executor/conversations.js'
import { sseFrame } from '../sse/write-sse.js'
import { isStorageUnavailable, storageUnavailable } from '../storage/unavailable.js'
import { HttpReply } from '../upstream/http-client.js'
import { type GatewayError, invalidRequest } from '../wire/errors.js'
import {
  type CreateResponseRequest,
  parseAddItems,
  parseCompactRequest,
  parseCreateConversation,
  parseCreateResponse,
  parseUpdateConversation,
} from '../wire/request.js'
import { parseJson, readBody, sendError, sendJson } from './io.js'
import { countTokens, createMessage } from './messages-routes.js'
import type { RouteContext } from './route-context.js'
import { sseSink } from './sse-sink.js'

type Handler = (context: RouteContext) => Promise<void>

/** A route: method, path pattern (`:id` segments), handler. */
export interface Route {
  method: string
  pattern: string[]
  handler: Handler
  /** Open without a bearer token (probes). */
  open?: boolean
  /** The shape of its error bodies (default OpenAI's). */
  errors?: 'openai' | 'anthropic'
}

function reply(res: ServerResponse, value: object | GatewayError, status = 200): void {
  if ('status' in value && 'type' in value && typeof value.status === 'number' && 'message' in value)
    sendError(res, value as GatewayError)
  else sendJson(res, status, value)
}

async function jsonBody(
  context: RouteContext,
): Promise<{ ok: true; value: unknown; raw: Buffer } | { ok: false }> {
  const body = await readBody(context.req, context.maxRequestBytes)
  if (body === 'too_large') {
    sendError(context.res, {
      status: 413,
      type: 'invalid_request_error',
      message: `The request body exceeds ${context.maxRequestBytes} bytes (maxRequestBytes).`,
      code: 'request_too_large',
    })
    return { ok: false }
  }
  const parsed = parseJson(body)
  if (!parsed.ok) {
    sendError(context.res, invalidRequest('The request body is not valid JSON.'))
    return { ok: false }
  }
  return { ok: true, value: parsed.value, raw: body }
}

async function createResponse(context: RouteContext): Promise<void> {
  const body = await jsonBody(context)
  if (!body.ok) return
  const parsed = parseCreateResponse(body.value)
  if (!parsed.ok) return sendError(context.res, parsed.error)
  const request = parsed.value
  if (request.background) return createBackground(context, request)
  if (!context.executor.isStateful(request)) return passThrough(context, body.raw)
  const sink = request.stream ? sseSink(context.res) : undefined
  try {
    const result = await context.executor.createResponse(
      request,
      sink,
      context.signal,
      context.principal.tenant,
    )
    switch (result.kind) {
      case 'aborted':
        context.res.destroy()
        return
      case 'error':
        return sendError(context.res, result.error)
      case 'response':
        if (sink) sink.end()
        else sendJson(context.res, 200, result.response)
        return
      default: {
        const unreachable: never = result
        throw new Error(`unknown result ${JSON.stringify(unreachable)}`)
      }
    }
  } catch (error) {
    const unavailable = isStorageUnavailable(error)
    context.log({
      level: unavailable ? 'warn' : 'error',
      msg: unavailable ? 'storage unavailable' : 'response failed',
      error: (error as Error).message,
    })
    const failure: GatewayError = unavailable
      ? storageUnavailable(error)
      : { status: 500, type: 'server_error', message: 'The gateway failed; nothing was stored.' }
    if (sink?.started()) {
      await sink.send('response.failed', {
        type: 'response.failed',
        response: {
          object: 'response',
          status: 'failed',
          error: { code: failure.code ?? 'server_error', message: failure.message },
        },
      })
      sink.end()
      return
    }
    if (unavailable) context.res.setHeader('retry-after', '1')
    sendError(context.res, failure)
  }
}

/** The stateless path: the body goes upstream byte for byte and the answer streams back unchanged. */
async function passThrough(context: RouteContext, raw: Buffer): Promise<void> {
  const upstream = await context.upstream.forward(
    '/responses',
    raw,
    { 'content-type': 'application/json', accept: String(context.req.headers.accept ?? '*/*') },
    context.signal,
  )
  if (!(upstream instanceof HttpReply)) return sendError(context.res, upstream)
  const headers: Record<string, string> = {}
  const type = upstream.header('content-type')
  if (type) headers['content-type'] = type
  context.res.writeHead(upstream.status, headers)
  try {
    for await (const chunk of upstream.body) {
      if (context.res.destroyed) break
      if (!context.res.write(chunk))
        await new Promise<void>((resolve) => {
          context.res.once('drain', resolve)
          context.res.once('close', resolve)
        })
    }
    context.res.end()
  } catch {
    context.res.destroy()
  }
}

async function compact(context: RouteContext): Promise<void> {
  const body = await jsonBody(context)
  if (!body.ok) return
  const parsed = parseCompactRequest(body.value)
  if (!parsed.ok) return sendError(context.res, parsed.error)
  reply(context.res, await context.executor.compact(parsed.value, context.signal, context.principal.tenant))
}

async function createConversation(context: RouteContext): Promise<void> {
  const body = await jsonBody(context)
  if (!body.ok) return
  const parsed = parseCreateConversation(body.value)
  if (!parsed.ok) return sendError(context.res, parsed.error)
  reply(
    context.res,
    await context.executor.conversations.create(
      parsed.value.items,
      parsed.value.metadata,
      context.principal.tenant,
    ),
  )
}

async function updateConversation(context: RouteContext): Promise<void> {
  const body = await jsonBody(context)
  if (!body.ok) return
  const parsed = parseUpdateConversation(body.value)
  if (!parsed.ok) return sendError(context.res, parsed.error)
  reply(
    context.res,
    await context.executor.conversations.update(
      context.params[0] ?? '',
      parsed.value.metadata,
      context.principal.tenant,
    ),
  )
}

async function addItems(context: RouteContext): Promise<void> {
  const body = await jsonBody(context)
  if (!body.ok) return
  const parsed = parseAddItems(body.value)
  if (!parsed.ok) return sendError(context.res, parsed.error)
  reply(
    context.res,
    await context.executor.conversations.addItems(
      context.params[0] ?? '',
      parsed.value,
      context.principal.tenant,
    ),
  )
}

/** A list's `limit`, `order` and `after` query parameters (OpenAI's defaults: 20, desc), or the 400. */
function listOptions(context: RouteContext): ListOptions | GatewayError {
  const limit = Number(context.query.get('limit') ?? '20')
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    return invalidRequest('limit must be an integer from 1 to 100.', 'limit')
  const order = context.query.get('order') ?? 'desc'
  if (order !== 'asc' && order !== 'desc') return invalidRequest("order must be 'asc' or 'desc'.", 'order')
  const after = context.query.get('after')
  return { limit, order, ...(after ? { after } : {}) }
}

async function listItems(context: RouteContext): Promise<void> {
  const options = listOptions(context)
  if ('status' in options) return sendError(context.res, options)
  reply(
    context.res,
    await context.executor.conversations.listItems(
      context.params[0] ?? '',
      options,
      context.principal.tenant,
    ),
  )
}

async function listInputItems(context: RouteContext): Promise<void> {
  const options = listOptions(context)
  if ('status' in options) return sendError(context.res, options)
  reply(
    context.res,
    await context.executor.listInputItems(context.params[0] ?? '', options, context.principal.tenant),
  )
}

/**
 * `background: true`: the response runs detached from this request. Without `stream` the answer is
 * the queued response at once; with it, its events stream as they come, and a client that leaves
 * only stops following (the response goes on; `GET …?stream=true&starting_after=N` resumes).
 */
async function createBackground(context: RouteContext, request: CreateResponseRequest): Promise<void> {
  const run = await context.executor.createBackground(request, context.principal.tenant)
  if (!(run instanceof BackgroundRun)) return sendError(context.res, run)
  if (!request.stream) return sendJson(context.res, 200, run.snapshot)
  await streamRun(context, run, -1)
}

/** Streams a background run's events after `after` and then its live ones, with backpressure. */
async function streamRun(context: RouteContext, run: BackgroundRun, after: number): Promise<void> {
  const { res } = context
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  })
  for await (const event of run.follow(after, context.signal)) {
    if (res.destroyed) return
    if (!res.write(sseFrame(event.type, event.json)))
      await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done)
          res.off('close', done)
          resolve()
        }
        res.once('drain', done)
        res.once('close', done)
      })
  }
  if (!res.destroyed) res.end()
}

async function getResponse(context: RouteContext): Promise<void> {
  const id = context.params[0] ?? ''
  const stream = context.query.get('stream')
  if (stream === 'true' || stream === '1') {
    const raw = context.query.get('starting_after')
    const after = raw === null ? -1 : Number(raw)
    if (!Number.isInteger(after) || after < -1)
      return sendError(
        context.res,
        invalidRequest('starting_after must be a sequence number (an integer, 0 or more).', 'starting_after'),
      )
    const run = await context.executor.responseEvents(id, context.principal.tenant)
    if (!(run instanceof BackgroundRun)) return sendError(context.res, run)
    return streamRun(context, run, after)
  }
  reply(context.res, await context.executor.getResponse(id, context.principal.tenant))
}

/** `POST /v1/responses/{id}/cancel`: stops a running background response; see the executor. */
async function cancelResponse(context: RouteContext): Promise<void> {
  reply(context.res, await context.executor.cancelResponse(context.params[0] ?? '', context.principal.tenant))
}

async function models(context: RouteContext): Promise<void> {
  const result = await context.upstream.models(context.signal)
  if (!result.ok) return sendError(context.res, result.error)
  sendJson(context.res, 200, result.body)
}

async function ready(context: RouteContext): Promise<void> {
  const state = await context.executor.ready()
  const ok = state.storage && state.upstream
  sendJson(context.res, ok ? 200 : 503, {
    status: ok ? 'ready' : 'not_ready',
    storage: state.storage ? 'ok' : 'unavailable',
    upstream: state.upstream ? 'ok' : 'unreachable',
  })
}

const p = (path: string): string[] => path.split('/').filter((segment) => segment !== '')

/** Every route, in match order (literal segments before `:id`). */
export const ROUTES: readonly Route[] = [
  {
    method: 'GET',
    pattern: p('/health'),
    open: true,
    handler: async ({ res }) => sendJson(res, 200, { status: 'ok' }),
  },
  { method: 'GET', pattern: p('/ready'), open: true, handler: ready },
  { method: 'GET', pattern: p('/v1/models'), handler: models },
  {
    method: 'GET',
    pattern: p('/metrics'),
    handler: async ({ res, metrics }) => {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' })
      res.end(metrics.render())
    },
  },
  { method: 'POST', pattern: p('/v1/responses'), handler: createResponse },
  { method: 'POST', pattern: p('/v1/responses/compact'), handler: compact },
  { method: 'POST', pattern: p('/v1/messages'), handler: createMessage, errors: 'anthropic' },
  { method: 'POST', pattern: p('/v1/messages/count_tokens'), handler: countTokens, errors: 'anthropic' },
  {
    method: 'GET',
    pattern: p('/v1/responses/:id'),
    handler: getResponse,
  },
  { method: 'POST', pattern: p('/v1/responses/:id/cancel'), handler: cancelResponse },
  {
    method: 'DELETE',
    pattern: p('/v1/responses/:id'),
    handler: async (c) =>
      reply(c.res, await c.executor.deleteResponse(c.params[0] ?? '', c.principal.tenant)),
  },
  { method: 'GET', pattern: p('/v1/responses/:id/input_items'), handler: listInputItems },
  { method: 'POST', pattern: p('/v1/conversations'), handler: createConversation },
  {
    method: 'GET',
    pattern: p('/v1/conversations/:id'),
    handler: async (c) =>
      reply(c.res, await c.executor.conversations.get(c.params[0] ?? '', c.principal.tenant)),
  },
  { method: 'POST', pattern: p('/v1/conversations/:id'), handler: updateConversation },
  {
    method: 'DELETE',
    pattern: p('/v1/conversations/:id'),
    handler: async (c) =>
      reply(c.res, await c.executor.conversations.delete(c.params[0] ?? '', c.principal.tenant)),
  },
  { method: 'GET', pattern: p('/v1/conversations/:id/items'), handler: listItems },
  { method: 'POST', pattern: p('/v1/conversations/:id/items'), handler: addItems },
  {
    method: 'GET',
    pattern: p('/v1/conversations/:id/items/:item'),
    handler: async (c) =>
      reply(
        c.res,
        await c.executor.conversations.getItem(c.params[0] ?? '', c.params[1] ?? '', c.principal.tenant),
      ),
  },
  {
    method: 'DELETE',
    pattern: p('/v1/conversations/:id/items/:item'),
    handler: async (c) =>
      reply(
        c.res,
        await c.executor.conversations.deleteItem(c.params[0] ?? '', c.params[1] ?? '', c.principal.tenant),
      ),
  },
]

/**
 * The route for a request and its `:param` values; `method_not_allowed` when only the path matches,
 * `malformed` when a segment is not valid percent-encoding.
 */
export function matchRoute(
  method: string,
  path: string,
): { route: Route; params: string[] } | 'not_found' | 'method_not_allowed' | 'malformed' {
  let segments: string[]
  try {
    segments = p(path).map((segment) => decodeURIComponent(segment))
  } catch {
    // `%E0%A4%A` and the like: the client's mistake (400), not the gateway's.
    return 'malformed'
  }
  let pathMatched = false
  for (const route of ROUTES) {
    if (route.pattern.length !== segments.length) continue
    const params: string[] = []
    const matches = route.pattern.every((part, index) => {
      const segment = segments[index] ?? ''
      if (part.startsWith(':')) {
        params.push(segment)
        return true
      }
      return part === segment
    })
    if (!matches) continue
    pathMatched = true
    if (route.method === method) return { route, params }
  }
  return pathMatched ? 'method_not_allowed' : 'not_found'
}
