/**
 * Turning whatever an SDK throws (HTTP status errors, in-stream error events, connection failures,
 * aborts) into a typed {@link ModelError} whose message tells the user what to do.
 */
import type { ModelError, ModelErrorKind } from './types.js'

/**
 * Provider wordings for "the prompt does not fit". Anthropic: "prompt is too long"; OpenAI:
 * `context_length_exceeded` / "maximum context length"; Responses: "exceeds the context window";
 * Gemini: "The input token count (…) exceeds the maximum number of tokens allowed"; vLLM / llama.cpp / Ollama / OpenRouter variants follow.
 */
const OVERFLOW_PATTERNS: RegExp[] = [
  /prompt is too long/i,
  /context[_ ]length[_ ]exceeded/i,
  /maximum context length/i,
  /exceeds? the context window/i,
  /context window (?:of|is) .*exceed/i,
  /input (?:is )?too long/i,
  /too many tokens/i,
  /exceeds? (?:the )?(?:model'?s? )?(?:max(?:imum)?|context)[ _-]?(?:context|length|tokens)/i,
  /request too large for model/i,
  /input tokens exceed/i,
  /exceed_context_size_error/i,
  /exceeds the available context size/i,
  /context size has been exceeded/i,
  /prompt length .* exceeds/i,
  /input token count .*exceeds the maximum number of tokens/i,
]

/** True when a provider's error text says the request is longer than the model's context window. */
export function isContextOverflowText(text: string): boolean {
  return OVERFLOW_PATTERNS.some((pattern) => pattern.test(text))
}

/** What an adapter knows about a failure, duck-typed from either SDK's error classes. */
interface ErrorFacts {
  status: number | undefined
  headers: Headers | undefined
  /** The provider's `error.type` / `error.code`, from the body or the in-stream error event. */
  providerType: string | undefined
  text: string
}

function factsOf(error: unknown): ErrorFacts {
  if (typeof error !== 'object' || error === null) {
    return { status: undefined, headers: undefined, providerType: undefined, text: String(error) }
  }
  const record = error as Record<string, unknown>
  const status = typeof record.status === 'number' ? record.status : undefined
  const headers = record.headers instanceof Headers ? record.headers : undefined
  const body = record.error
  const nested =
    typeof body === 'object' && body !== null ? ((body as Record<string, unknown>).error ?? body) : undefined
  const nestedRecord = (typeof nested === 'object' && nested !== null ? nested : {}) as Record<
    string,
    unknown
  >
  const providerType =
    pickString(nestedRecord.code) ?? pickString(nestedRecord.type) ?? pickString(record.code) ?? undefined
  const bodyMessage = pickString(nestedRecord.message)
  const ownMessage = error instanceof Error ? error.message : ''
  const cause = record.cause instanceof Error ? ` (${record.cause.message})` : ''
  const text = [bodyMessage, ownMessage, providerType].filter(Boolean).join(' | ') + cause
  return { status, headers, providerType, text }
}

function pickString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined
}

/** Reads `retry-after-ms` (milliseconds) or `retry-after` (seconds or an HTTP date) from headers. */
export function retryAfterMsFrom(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined
  const ms = headers.get('retry-after-ms')
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms))
  const after = headers.get('retry-after')
  if (after === null || after.trim() === '') return undefined
  const seconds = Number(after)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(after)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** Where a client sends its requests: the URL a connection failure names, and the variable that sets it. */
export interface ModelEndpoint {
  url: string
  /** The environment variable that overrides the URL (`ANTHROPIC_BASE_URL`), when there is one. */
  variable?: string
}

/**
 * Classifies anything thrown while requesting or streaming. `aborted` wins whenever the signal fired.
 * With `endpoint`, a connection failure names the URL and what to check.
 */
export function classifyError(
  error: unknown,
  signal: AbortSignal | undefined,
  provider: string,
  endpoint?: ModelEndpoint,
): ModelError {
  if (signal?.aborted) return abortedError()
  if (error instanceof TypedModelError) return error.modelError
  const facts = factsOf(error)
  const name = error instanceof Error ? error.name : ''
  if (name === 'APIUserAbortError' || name === 'AbortError') return abortedError()
  const kind = kindOf(facts, name)
  const retryAfterMs = retryAfterMsFrom(facts.headers)
  const result: ModelError = {
    kind,
    message: userMessage(kind, provider, facts, endpoint, error),
    providerMessage: facts.text,
  }
  if (facts.status !== undefined) result.status = facts.status
  if (retryAfterMs !== undefined) result.retryAfterMs = retryAfterMs
  return result
}

function kindOf(facts: ErrorFacts, name: string): ModelErrorKind {
  const type = facts.providerType ?? ''
  if (isContextOverflowText(facts.text)) return 'context_overflow'
  const serverSide = facts.status === undefined || facts.status >= 500
  if (facts.status === 529 || /overloaded/i.test(type) || (serverSide && /overloaded/i.test(facts.text))) {
    return 'overloaded'
  }
  if (facts.status === 429 || type === 'rate_limit_error' || type === 'rate_limit_exceeded') {
    return 'rate_limited'
  }
  if (facts.status === 401 || type === 'authentication_error') return 'authentication'
  if (facts.status === 403 || type === 'permission_error') return 'permission'
  if (facts.status === 404 || type === 'not_found_error' || type === 'model_not_found') return 'not_found'
  if (facts.status === 413 || type === 'request_too_large') return 'context_overflow'
  if (facts.status !== undefined && facts.status >= 400 && facts.status < 500) {
    return facts.status === 408 || facts.status === 409 ? 'server' : 'invalid_request'
  }
  if (facts.status !== undefined && facts.status >= 500) return 'server'
  if (type === 'api_error' || type === 'server_error') return 'server'
  if (type === 'invalid_request_error') return 'invalid_request'
  if (name === 'APIConnectionError' || name === 'APIConnectionTimeoutError' || isNetworkText(facts.text)) {
    return 'network'
  }
  // An in-stream error with no status and no recognisable type: the stream broke, so treat it as a
  // transient server failure (retried) rather than a request the user must change.
  return facts.status === undefined ? 'server' : 'invalid_request'
}

function isNetworkText(text: string): boolean {
  return /ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|socket hang up|terminated|fetch failed|network|other side closed|premature close|ended before/i.test(
    text,
  )
}

function userMessage(
  kind: ModelErrorKind,
  provider: string,
  facts: ErrorFacts,
  endpoint: ModelEndpoint | undefined,
  error: unknown,
): string {
  const said = facts.text ? ` The provider said: ${truncate(facts.text)}` : ''
  switch (kind) {
    case 'context_overflow':
      return `The conversation is longer than the model's context window. Compact it (/compact) or start a new session.${said}`
    case 'rate_limited':
      return `The ${provider} API is rate limiting requests. Wait a minute and try again, or use a key with a higher limit.${said}`
    case 'overloaded':
      return `The ${provider} API is overloaded. Try again shortly, or switch to another model.${said}`
    case 'authentication':
      return `The ${provider} API rejected the API key. Check the key in your environment or provider settings.${said}`
    case 'permission':
      return `The ${provider} API key may not use this model or feature. Check the key's permissions or pick another model.${said}`
    case 'not_found':
      return `The ${provider} API does not know this model or endpoint. Check the model id and the provider's base URL.${said}`
    case 'invalid_request':
      return `The ${provider} API rejected the request as invalid. This is likely a bug or an unsupported option for this model; check the model and settings.${said}`
    case 'network': {
      if (endpoint === undefined)
        return `Could not reach the ${provider} API (connection failed or dropped). Check your network and the provider's base URL.${said}`
      const setBy = endpoint.variable !== undefined ? `${endpoint.variable} or ` : ''
      return `Could not reach the ${provider} API at ${endpoint.url} (${connectionProblem(error)}). Check that a server is running at that address and reachable from here (network, proxy, firewall), or fix the base URL (${setBy}base_url in the provider's settings).${said}`
    }
    case 'server':
      return `The ${provider} API failed with a server error. Try again shortly.${said}`
    case 'aborted':
      return 'The request was cancelled.'
    default: {
      const unreachable: never = kind
      return String(unreachable)
    }
  }
}

/** What went wrong with the connection, from the system error code somewhere in the cause chain. */
function connectionProblem(error: unknown): string {
  let current: unknown = error
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code
    // fetch refuses ports browsers block (9, 25, 6000, …) before connecting.
    if ((current as { message?: unknown }).message === 'bad port')
      return 'fetch refuses to connect to this port; serve on another one'
    switch (code) {
      case 'ECONNREFUSED':
        return 'connection refused: nothing is listening there'
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return 'the host name does not resolve'
      case 'ETIMEDOUT':
      case 'UND_ERR_CONNECT_TIMEOUT':
        return 'the connection timed out'
      case 'ECONNRESET':
      case 'UND_ERR_SOCKET':
        return 'the connection was closed'
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
        return 'the host is unreachable'
      default:
        if (typeof code === 'string' && /CERT|SSL|TLS/.test(code)) return `a TLS problem: ${code}`
    }
    current = (current as { cause?: unknown }).cause
  }
  return 'connection failed or dropped'
}

function truncate(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text
}

/** The error for a cancelled request. */
export function abortedError(): ModelError {
  return { kind: 'aborted', message: 'The request was cancelled.' }
}

/** True for the kinds worth retrying with backoff. */
export function isRetryable(error: ModelError): boolean {
  switch (error.kind) {
    case 'rate_limited':
    case 'overloaded':
    case 'network':
    case 'server':
      return true
    case 'context_overflow':
    case 'authentication':
    case 'permission':
    case 'invalid_request':
    case 'not_found':
    case 'aborted':
      return false
    default: {
      const unreachable: never = error.kind
      return unreachable
    }
  }
}

/** An error raised by an adapter itself (e.g. a stream that ended early), classified like SDK errors. */
export class StreamProtocolError extends Error {
  override readonly name = 'APIConnectionError'
}

/** Carries an already-typed {@link ModelError} through code that throws (scripted clients, adapters). */
export class TypedModelError extends Error {
  constructor(readonly modelError: ModelError) {
    super(modelError.message)
  }
}
