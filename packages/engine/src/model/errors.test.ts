import { describe, expect, it } from 'vitest'
import { classifyError, isContextOverflowText, isRetryable, retryAfterMsFrom } from './errors.js'
import { resolveRetryOptions, retryDelayMs } from './retry.js'
import { parseToolArgs } from './tool-args.js'

/** Shaped like the SDKs' APIError: status, headers, and the parsed body as `error`. */
function apiError(status: number | undefined, body: unknown, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error(`${status} status`), { status, error: body, headers: new Headers(headers) })
}

describe('classifyError', () => {
  it.each([
    ['prompt is too long: 208310 tokens > 200000 maximum', true],
    [
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens.",
      true,
    ],
    ['Your input exceeds the context window of this model.', true],
    ['context_length_exceeded', true],
    ['request (9000 tokens) exceeds the available context size (8192 tokens), try increasing it', true],
    ['Input is too long for requested model.', true],
    ['tools.0.name: String should match pattern', false],
  ])('overflow wording %s → %s', (text, expected) => {
    expect(isContextOverflowText(text)).toBe(expected)
  })

  it('maps statuses and provider types to kinds', () => {
    const kind = (error: unknown) => classifyError(error, undefined, 'Test').kind
    expect(
      kind(apiError(429, { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } })),
    ).toBe('rate_limited')
    expect(
      kind(apiError(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })),
    ).toBe('overloaded')
    expect(kind(apiError(undefined, { type: 'overloaded_error', message: 'Overloaded' }))).toBe('overloaded')
    expect(kind(apiError(401, { error: { message: 'bad key', code: 'invalid_api_key' } }))).toBe(
      'authentication',
    )
    expect(kind(apiError(403, {}))).toBe('permission')
    expect(
      kind(apiError(404, { error: { message: 'The model `x` does not exist', code: 'model_not_found' } })),
    ).toBe('not_found')
    expect(kind(apiError(400, { error: { message: 'bad', type: 'invalid_request_error' } }))).toBe(
      'invalid_request',
    )
    expect(kind(apiError(400, { error: { message: 'x', code: 'context_length_exceeded' } }))).toBe(
      'context_overflow',
    )
    expect(kind(apiError(413, {}))).toBe('context_overflow')
    expect(kind(apiError(503, {}))).toBe('server')
    expect(
      kind(
        apiError(503, { error: { message: 'The engine is currently overloaded, please try again later' } }),
      ),
    ).toBe('overloaded')
    expect(kind(Object.assign(new Error('Connection error.'), { name: 'APIConnectionError' }))).toBe(
      'network',
    )
    expect(kind(new TypeError('terminated'))).toBe('network')
  })

  it('names the URL of a server it cannot reach, what failed and the variable that sets it', () => {
    const endpoint = { url: 'http://127.0.0.1:9/v1', variable: 'OPENAI_BASE_URL' }
    const blocked = classifyError(
      Object.assign(new Error('Connection error.'), {
        name: 'APIConnectionError',
        cause: new TypeError('fetch failed', { cause: new Error('bad port') }),
      }),
      undefined,
      'OpenAI',
      endpoint,
    )
    expect(blocked.kind).toBe('network')
    expect(blocked.message).toContain(
      'Could not reach the OpenAI API at http://127.0.0.1:9/v1 (fetch refuses to connect to this port; serve on another one).',
    )
    expect(blocked.message).toContain('OPENAI_BASE_URL')
    const unknownHost = classifyError(
      new TypeError('fetch failed', {
        cause: Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND' }),
      }),
      undefined,
      'Anthropic',
      { url: 'https://api.example.invalid' },
    )
    expect(unknownHost.message).toContain('at https://api.example.invalid (the host name does not resolve)')
  })

  it('reports aborted whenever the signal fired, whatever was thrown', () => {
    const controller = new AbortController()
    controller.abort()
    expect(classifyError(apiError(500, {}), controller.signal, 'Test').kind).toBe('aborted')
    expect(
      classifyError(Object.assign(new Error('x'), { name: 'APIUserAbortError' }), undefined, 'T').kind,
    ).toBe('aborted')
  })

  it('writes messages that say what to do and keeps the provider wording', () => {
    const error = classifyError(
      apiError(400, {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'prompt is too long: 5 > 4' },
      }),
      undefined,
      'Anthropic',
    )
    expect(error.kind).toBe('context_overflow')
    expect(error.message).toMatch(/Compact it \(\/compact\) or start a new session/)
    expect(error.providerMessage).toContain('prompt is too long')
    expect(error.status).toBe(400)
    expect(classifyError(apiError(401, {}), undefined, 'OpenAI').message).toMatch(/Check the key/)
  })

  it('retries only transient kinds', () => {
    const retryable = ['rate_limited', 'overloaded', 'network', 'server'] as const
    const never = [
      'context_overflow',
      'authentication',
      'permission',
      'invalid_request',
      'not_found',
      'aborted',
    ] as const
    for (const kind of retryable) expect(isRetryable({ kind, message: '' })).toBe(true)
    for (const kind of never) expect(isRetryable({ kind, message: '' })).toBe(false)
  })
})

describe('retry timing', () => {
  it('reads retry-after-ms, retry-after seconds and HTTP dates', () => {
    expect(retryAfterMsFrom(new Headers({ 'retry-after-ms': '1500', 'retry-after': '9' }))).toBe(1500)
    expect(retryAfterMsFrom(new Headers({ 'retry-after': '2' }))).toBe(2000)
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(retryAfterMsFrom(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000)
    expect(retryAfterMsFrom(new Headers({ 'retry-after': 'soon' }))).toBeUndefined()
    expect(retryAfterMsFrom(undefined)).toBeUndefined()
  })

  it('backs off exponentially with jitter, capped, and refuses absurd retry-after', () => {
    const low = resolveRetryOptions({ random: () => 0, baseDelayMs: 1000, maxDelayMs: 8000 })
    const high = resolveRetryOptions({ random: () => 0.999, baseDelayMs: 1000, maxDelayMs: 8000 })
    const error = { kind: 'server' as const, message: '' }
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelayMs(attempt, error, low))).toEqual([
      500, 1000, 2000, 4000, 4000,
    ])
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelayMs(attempt, error, high))).toEqual([
      1000, 1999, 3998, 7996, 7996,
    ])
    expect(retryDelayMs(1, { ...error, retryAfterMs: 2500 }, low)).toBe(2500)
    expect(retryDelayMs(1, { ...error, retryAfterMs: 3_600_000 }, low)).toBeUndefined()
    expect(resolveRetryOptions().maxRetries).toBe(4)
  })
})

describe('parseToolArgs', () => {
  it('parses objects, treats empty as {}, and never throws on bad input', () => {
    expect(parseToolArgs('{"a":1}')).toEqual({ ok: true, input: { a: 1 } })
    expect(parseToolArgs('  ')).toEqual({ ok: true, input: {} })
    expect(parseToolArgs('{"a":')).toMatchObject({
      ok: false,
      message: expect.stringContaining('not valid JSON'),
    })
    expect(parseToolArgs('[1,2]')).toMatchObject({ ok: false, message: expect.stringContaining('an array') })
    expect(parseToolArgs('"text"')).toMatchObject({ ok: false, message: expect.stringContaining('string') })
  })
})
