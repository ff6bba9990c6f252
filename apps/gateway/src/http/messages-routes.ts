/**
 * `POST /v1/messages` and `POST /v1/messages/count_tokens`: Anthropic-shaped requests, replies and
 * errors (`{"type": "error", "error": {"type", "message"}}`), so the official SDK raises its usual
 * error classes. The loop is messages/loop.ts; nothing here touches storage.
 */
import type { ServerResponse } from 'node:http'
import { runMessages } from '../messages/loop.js'
import { anthropicErrorType } from '../messages/message-result.js'
import { parseMessagesRequest } from '../messages/request.js'
import { toInputItems, upstreamBody } from '../messages/to-upstream.js'
import { openMessagesTools } from '../messages/tools.js'
import type { GatewayError } from '../wire/errors.js'
import { isObject } from '../wire/json.js'
import { parseJson, readBody, sendJson } from './io.js'
import type { RouteContext } from './route-context.js'
import { sseSink } from './sse-sink.js'

/** Sends an Anthropic-shaped error (or drops the connection when a stream already started). */
export function sendAnthropicError(res: ServerResponse, error: GatewayError): void {
  if (res.headersSent) {
    res.destroy()
    return
  }
  const requestId = res.getHeader('request-id')
  sendJson(res, error.status, {
    type: 'error',
    error: { type: anthropicErrorType(error.status), message: error.message },
    ...(typeof requestId === 'string' ? { request_id: requestId } : {}),
  })
}

async function body(context: RouteContext): Promise<unknown | undefined> {
  const raw = await readBody(context.req, context.maxRequestBytes)
  if (raw === 'too_large') {
    sendAnthropicError(context.res, {
      status: 413,
      type: 'invalid_request_error',
      message: `The request body exceeds ${context.maxRequestBytes} bytes (maxRequestBytes).`,
    })
    return undefined
  }
  const parsed = parseJson(raw)
  if (!parsed.ok) {
    sendAnthropicError(context.res, {
      status: 400,
      type: 'invalid_request_error',
      message: 'The request body is not valid JSON.',
    })
    return undefined
  }
  return parsed.value
}

function warner(context: RouteContext): (message: string) => void {
  return (message) => context.log({ level: 'warn', msg: message, path: '/v1/messages' })
}

/** `POST /v1/messages`. */
export async function createMessage(context: RouteContext): Promise<void> {
  const value = await body(context)
  if (value === undefined) return
  const parsed = parseMessagesRequest(value)
  if (!parsed.ok) return sendAnthropicError(context.res, parsed.error)
  const request = parsed.value
  const tools = await openMessagesTools(request, context.config, context.signal, warner(context))
  if ('status' in tools) return sendAnthropicError(context.res, tools)
  const sink = request.stream ? sseSink(context.res) : undefined
  try {
    const result = await runMessages({
      request,
      tools,
      upstream: context.upstream,
      config: context.config,
      sink,
      signal: context.signal,
    })
    switch (result.kind) {
      case 'aborted':
        context.res.destroy()
        return
      case 'error':
        return sendAnthropicError(context.res, result.error)
      case 'message':
        if (sink) sink.end()
        else sendJson(context.res, 200, result.message)
        return
      default: {
        const unreachable: never = result
        throw new Error(`unknown result ${JSON.stringify(unreachable)}`)
      }
    }
  } catch (error) {
    context.log({ level: 'error', msg: 'message failed', error: (error as Error).message })
    if (sink?.started()) {
      await sink.send('error', {
        type: 'error',
        error: { type: 'api_error', message: 'The gateway failed.' },
      })
      sink.end()
      return
    }
    sendAnthropicError(context.res, { status: 500, type: 'server_error', message: 'The gateway failed.' })
  } finally {
    await tools.close()
  }
}

/**
 * `POST /v1/messages/count_tokens`: the upstream's own count. The request is translated as for a
 * message (tools included) and sent with `max_output_tokens: 1`; the answer's `input_tokens` is the
 * count (the upstream tokenizer and chat template, not an estimate). Declarations are checked as for
 * a message, so a tool this gateway would refuse is refused here too.
 */
export async function countTokens(context: RouteContext): Promise<void> {
  const value = await body(context)
  if (value === undefined) return
  const parsed = parseMessagesRequest(value, false)
  if (!parsed.ok) return sendAnthropicError(context.res, parsed.error)
  const request = { ...parsed.value, maxTokens: 1, stream: false }
  const tools = await openMessagesTools(request, context.config, context.signal, warner(context))
  if ('status' in tools) return sendAnthropicError(context.res, tools)
  try {
    const input = toInputItems(request)
    if (!Array.isArray(input)) return sendAnthropicError(context.res, input)
    const reply = await context.upstream.createResponse(
      upstreamBody(request, input, tools.upstreamTools, request.toolChoice, false),
      context.signal,
    )
    if (reply.kind === 'error') return sendAnthropicError(context.res, reply.error)
    const usage =
      reply.kind === 'json' && isObject(reply.body) && isObject(reply.body.usage)
        ? reply.body.usage
        : undefined
    const count = Number(usage?.input_tokens)
    if (!Number.isFinite(count))
      return sendAnthropicError(context.res, {
        status: 502,
        type: 'upstream_error',
        message: 'The upstream did not report input_tokens, so the gateway cannot count this request.',
      })
    sendJson(context.res, 200, { input_tokens: count })
  } finally {
    await tools.close()
  }
}
