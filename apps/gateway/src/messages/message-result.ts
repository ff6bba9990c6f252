import type { GatewayConfig } from '../config.js'
import type { Upstream } from '../upstream/upstream.js'
import type { GatewayError } from '../wire/errors.js'
import type { JsonObject } from '../wire/json.js'
import type { MessagesRequest } from './request.js'
import type { MessagesTools } from './tool-types.js'

/** Where a streamed message's events go; `send` is false (or resolves false) when the client left. */
export interface MessagesSink {
  send(event: string, data: JsonObject): boolean | Promise<boolean>
}

/** Everything one request needs. */
export interface MessagesInput {
  request: MessagesRequest
  tools: MessagesTools
  upstream: Upstream
  config: GatewayConfig
  sink: MessagesSink | undefined
  signal: AbortSignal
}

/** How it ended: a message (already streamed when there was a sink), an error before any event, or the client left. */
export type MessagesResult =
  | { kind: 'message'; message: JsonObject }
  | { kind: 'error'; error: GatewayError }
  | { kind: 'aborted' }

/** The Anthropic error type for a gateway error status. */
export function anthropicErrorType(status: number): string {
  if (status === 400 || status === 409 || status === 422 || status === 424) return 'invalid_request_error'
  if (status === 401) return 'authentication_error'
  if (status === 403) return 'permission_error'
  if (status === 404) return 'not_found_error'
  if (status === 413) return 'request_too_large'
  if (status === 429) return 'rate_limit_error'
  if (status === 529) return 'overloaded_error'
  return 'api_error'
}
