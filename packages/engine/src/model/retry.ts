/**
 * Retry policy: exponential backoff with jitter that honours the provider's `retry-after`. The SDKs'
 * own retries are disabled (`maxRetries: 0`) so these are the only ones, and each is observable as a
 * `retrying` event.
 */
import type { ModelError } from './types.js'

/** How retries behave. Every field has a default; tests inject `sleep` and `random`. */
export interface RetryOptions {
  /** Retries after the first attempt (default 4, so at most 5 attempts). 0 disables retries. */
  maxRetries?: number
  /** The first backoff (default 1,000 ms), doubled each retry. */
  baseDelayMs?: number
  /** The largest computed backoff (default 32,000 ms). */
  maxDelayMs?: number
  /** A `retry-after` above this (default 120,000 ms) is not waited for: the error is surfaced instead. */
  maxRetryAfterMs?: number
  /** Waits `ms` or rejects when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>
  /** A number in [0, 1) for jitter. */
  random?: () => number
}

/** The defaults, resolved. */
export type ResolvedRetryOptions = Required<RetryOptions>

/** Fills in the defaults. */
export function resolveRetryOptions(options: RetryOptions = {}): ResolvedRetryOptions {
  return {
    maxRetries: options.maxRetries ?? 4,
    baseDelayMs: options.baseDelayMs ?? 1000,
    maxDelayMs: options.maxDelayMs ?? 32_000,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 120_000,
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? Math.random,
  }
}

/**
 * The wait before retry number `attempt` (1-based), or undefined when the provider asked for a wait
 * longer than we are willing to hold the user for.
 */
export function retryDelayMs(
  attempt: number,
  error: ModelError,
  options: ResolvedRetryOptions,
): number | undefined {
  if (error.retryAfterMs !== undefined) {
    return error.retryAfterMs > options.maxRetryAfterMs ? undefined : Math.ceil(error.retryAfterMs)
  }
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1))
  // "Equal jitter": half fixed, half random, so concurrent clients spread out but never retry at once.
  return Math.round(exponential / 2 + (options.random() * exponential) / 2)
}

/** A timer that rejects with an AbortError as soon as `signal` fires. */
export function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('aborted', 'AbortError'))
      return
    }
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(new DOMException('aborted', 'AbortError'))
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
