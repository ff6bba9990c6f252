/**
 * Errors as values: every failure the gateway reports has an HTTP status and an OpenAI-shaped body
 * (`{error: {message, type, param, code}}`), so the official SDKs raise their usual error classes.
 */

/** The OpenAI error types the gateway uses. */
export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'rate_limit_error'
  | 'server_error'
  | 'upstream_error'

/** A failure with the status and body a client sees. */
export interface GatewayError {
  status: number
  type: ErrorType
  message: string
  param?: string | null
  code?: string | null
}

/** The JSON body of an error response. */
export function errorBody(error: GatewayError): {
  error: { message: string; type: ErrorType; param: string | null; code: string | null }
} {
  return {
    error: { message: error.message, type: error.type, param: error.param ?? null, code: error.code ?? null },
  }
}

/** A 400 naming the offending parameter. */
export function invalidRequest(
  message: string,
  param: string | null = null,
  code: string | null = null,
): GatewayError {
  return { status: 400, type: 'invalid_request_error', message, param, code }
}

/** A 404 for an id that is not stored (or was deleted). */
export function notFound(kind: string, id: string): GatewayError {
  return {
    status: 404,
    type: 'not_found_error',
    message: `No ${kind} with id '${id}' is stored here (it was never stored, was created with store: false, or was deleted).`,
    code: `${kind}_not_found`,
  }
}

/** Thrown inside the gateway to unwind to the HTTP layer with a GatewayError. */
export class GatewayFailure extends Error {
  /** The error the client sees. */
  readonly error: GatewayError
  constructor(error: GatewayError) {
    super(error.message)
    this.error = error
  }
}
