/** The scripted server's fault responses, each in the wording and shape of the provider it imitates. */
import type { ScriptFault } from './script.js'
import { anthropicError } from './wire/anthropic.js'
import { openaiError } from './wire/chat.js'
import { geminiError } from './wire/gemini.js'

/** The wire formats the scripted server speaks. */
export type WireFormat = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini'

/** An HTTP error response to send. */
export interface FaultResponse {
  status: number
  headers: Record<string, string>
  body: unknown
}

/** The HTTP response for a status fault (everything but `drop`). */
export function faultResponse(
  fault: Exclude<ScriptFault, { type: 'drop' }>,
  format: WireFormat,
): FaultResponse {
  if (format === 'gemini' && fault.type !== 'status') return geminiFault(fault)
  const anthropic = format === 'anthropic'
  switch (fault.type) {
    case 'rate_limit': {
      const headers: Record<string, string> = { 'retry-after': String(fault.retryAfterSeconds ?? 1) }
      if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs)
      return {
        status: 429,
        headers,
        body: anthropic
          ? anthropicError(
              'rate_limit_error',
              'This request would exceed the rate limit for your organization of 50,000 input tokens per minute.',
            )
          : openaiError(
              'Rate limit reached for requests on tokens per min (TPM): Limit 30000, Used 30000, Requested 512. Please try again in 1s.',
              'tokens',
              'rate_limit_exceeded',
            ),
      }
    }
    case 'overloaded':
      return {
        status: 529,
        headers: {},
        body: anthropic
          ? anthropicError('overloaded_error', 'Overloaded')
          : openaiError('The server is overloaded.', 'server_error', null),
      }
    case 'server_error':
      return {
        status: 500,
        headers: {},
        body: anthropic
          ? anthropicError('api_error', 'Internal server error')
          : openaiError(
              'The server had an error while processing your request. Sorry about that!',
              'server_error',
              null,
            ),
      }
    case 'context_overflow':
      return { status: 400, headers: {}, body: overflowBody(format) }
    case 'authentication':
      return {
        status: 401,
        headers: {},
        body: anthropic
          ? anthropicError('authentication_error', 'invalid x-api-key')
          : openaiError(
              'Incorrect API key provided: sk-bad. You can find your API key at https://platform.openai.com/account/api-keys.',
              'invalid_request_error',
              'invalid_api_key',
            ),
      }
    case 'status':
      return { status: fault.status, headers: fault.headers ?? {}, body: fault.body }
    default: {
      const unreachable: never = fault
      return unreachable
    }
  }
}

/** Google's statuses and wordings: quota as RESOURCE_EXHAUSTED with a RetryInfo, a bad key as a 400. */
function geminiFault(fault: Exclude<ScriptFault, { type: 'drop' } | { type: 'status' }>): FaultResponse {
  switch (fault.type) {
    case 'rate_limit': {
      const seconds =
        fault.retryAfterMs !== undefined ? fault.retryAfterMs / 1000 : (fault.retryAfterSeconds ?? 1)
      return {
        status: 429,
        headers: {},
        body: geminiError(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).', [
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${seconds}s` },
        ]),
      }
    }
    case 'overloaded':
      return {
        status: 503,
        headers: {},
        body: geminiError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.'),
      }
    case 'server_error':
      return {
        status: 500,
        headers: {},
        body: geminiError(
          500,
          'INTERNAL',
          'An internal error has occurred. Please retry or report the problem.',
        ),
      }
    case 'context_overflow':
      return { status: 400, headers: {}, body: overflowBody('gemini') }
    case 'authentication':
      return {
        status: 400,
        headers: {},
        body: geminiError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'API_KEY_INVALID',
            domain: 'googleapis.com',
          },
        ]),
      }
    default: {
      const unreachable: never = fault
      return unreachable
    }
  }
}

function overflowBody(format: WireFormat): unknown {
  switch (format) {
    case 'anthropic':
      return anthropicError('invalid_request_error', 'prompt is too long: 208310 tokens > 200000 maximum')
    case 'openai-chat':
      return openaiError(
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens. Please reduce the length of the messages.",
        'invalid_request_error',
        'context_length_exceeded',
        'messages',
      )
    case 'openai-responses':
      return openaiError(
        'Your input exceeds the context window of this model. Please adjust your input and try again.',
        'invalid_request_error',
        'context_length_exceeded',
        'input',
      )
    case 'gemini':
      return geminiError(
        400,
        'INVALID_ARGUMENT',
        'The input token count (1203455) exceeds the maximum number of tokens allowed (1048576).',
      )
    default: {
      const unreachable: never = format
      return unreachable
    }
  }
}
