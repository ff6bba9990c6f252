/**
 * The SDK's `ApiError` carries only a status and the error body as JSON text, in Google's shape
 * (`{error: {code, message, status: "RESOURCE_EXHAUSTED", details: [...]}}`). This reshapes it into
 * what `classifyError` reads (status, headers with the retry wait, provider type and message), so
 * Gemini errors map to the same kinds as the other providers'.
 */

/** What classifyError reads, duck-typed like the other SDKs' errors. */
export class GeminiApiError extends Error {
  override readonly name = 'GeminiApiError'
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly headers: Headers,
    readonly error: { error: { message: string; type?: string } },
  ) {
    super(message)
  }
}

interface GoogleErrorBody {
  code?: number
  message?: string
  status?: string
  details?: Array<Record<string, unknown>>
}

/**
 * Reshapes an SDK error; anything that is not an `ApiError` (network failures, aborts, our own
 * errors) is returned unchanged. `responseHeaders` are the failed response's headers when known.
 */
export function normalizeGeminiError(error: unknown, responseHeaders?: Headers): unknown {
  if (!(error instanceof Error) || error.name !== 'ApiError') return error
  const raw = (error as Error & { status?: unknown }).status
  const status = typeof raw === 'number' ? raw : undefined
  const body = parseBody(error.message)
  const message = body?.message ?? error.message
  const headers = new Headers(responseHeaders)
  const retryDelay = retryDelayMs(body)
  if (!headers.has('retry-after') && !headers.has('retry-after-ms') && retryDelay !== undefined)
    headers.set('retry-after-ms', String(retryDelay))
  const type = providerType(body, message)
  return new GeminiApiError(message, status, headers, {
    error: type === undefined ? { message } : { message, type },
  })
}

function parseBody(text: string): GoogleErrorBody | undefined {
  // Stream errors read "got status: X. {json}"; HTTP errors are the JSON body itself.
  const start = text.indexOf('{')
  if (start < 0) return undefined
  try {
    const parsed = JSON.parse(text.slice(start)) as { error?: unknown }
    const inner = Array.isArray(parsed) ? (parsed[0] as { error?: unknown } | undefined)?.error : parsed.error
    return typeof inner === 'object' && inner !== null ? (inner as GoogleErrorBody) : undefined
  } catch {
    return undefined
  }
}

/** `google.rpc.RetryInfo.retryDelay` ("30s", "1.5s"), which Gemini sends with quota errors. */
function retryDelayMs(body: GoogleErrorBody | undefined): number | undefined {
  for (const detail of body?.details ?? []) {
    const delay = detail.retryDelay
    if (typeof delay !== 'string') continue
    const match = /^(\d+(?:\.\d+)?)s$/.exec(delay.trim())
    if (match) return Math.round(Number(match[1]) * 1000)
  }
  return undefined
}

/**
 * The kinds Google's canonical status does not make plain from the HTTP status alone: an invalid
 * key is a 400 (`API_KEY_INVALID`), quota is `RESOURCE_EXHAUSTED`, overload is `UNAVAILABLE` with
 * "overloaded" in the text.
 */
function providerType(body: GoogleErrorBody | undefined, message: string): string | undefined {
  const reasons = (body?.details ?? []).map((detail) => String(detail.reason ?? ''))
  if (reasons.includes('API_KEY_INVALID') || /API key not valid|API key expired/i.test(message))
    return 'authentication_error'
  if (body?.status === 'UNAUTHENTICATED') return 'authentication_error'
  if (body?.status === 'PERMISSION_DENIED') return 'permission_error'
  if (body?.status === 'RESOURCE_EXHAUSTED') return 'rate_limit_error'
  if (body?.status === 'UNAVAILABLE' && /overloaded/i.test(message)) return 'overloaded_error'
  if (body?.status === 'NOT_FOUND') return 'not_found_error'
  if (body?.status === 'INTERNAL') return 'server_error'
  return body?.status
}
