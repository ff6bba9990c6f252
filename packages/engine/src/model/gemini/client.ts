/**
 * The Gemini client: Google's `@google/genai` SDK (imported lazily) streaming with its retries off,
 * and, when asked, explicit context caching of each request's stable prefix (context-cache.ts).
 */
import type { GenerateContentParameters, GoogleGenAI } from '@google/genai'
import { lazySdk, sdkLoadError } from '../lazy-sdk.js'
import { type RetryOptions, resolveRetryOptions } from '../retry.js'
import type { AttemptEvent } from '../run-stream.js'
import { runStream } from '../run-stream.js'
import type { SdkConnection } from '../sdk-options.js'
import type { ModelClient, ModelRequest, StreamEvent } from '../types.js'
import type { CacheEntry } from './cache-plan.js'
import { GeminiContextCache } from './context-cache.js'
import { normalizeGeminiError } from './errors.js'
import { toGeminiRequest } from './request.js'
import { geminiEvents } from './stream.js'

/** The Gemini API's own address; a base URL override replaces it (local servers, proxies). */
export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com'

/**
 * How long an explicit cache lives by default: long enough for the next rounds and a short pause
 * of the user's, short enough that an abandoned session's caches cost little storage.
 */
export const GEMINI_CACHE_TTL_SECONDS = 300

/** Connection settings for {@link createGeminiClient}. */
export interface GeminiClientOptions extends SdkConnection {
  /** Without the API version; the SDK appends `/v1beta/models/<id>:streamGenerateContent`. */
  baseUrl?: string
  retry?: RetryOptions
  /**
   * Explicit context caching (`[provider.gemini] cache_control`): each request's stable prefix is
   * cached for `ttlSeconds` with `caches.create` and named by later requests. Absent: off, and
   * Gemini's implicit caching alone applies.
   */
  cache?: { ttlSeconds: number }
}

/** A Gemini API client. The SDK loads on the first request, so startup does not pay for it. */
export function createGeminiClient(options: GeminiClientOptions): ModelClient {
  const retry = resolveRetryOptions(options.retry)
  const baseFetch = options.fetch ?? fetch
  const { load, warm } = lazySdk<GoogleGenAI>(
    () =>
      import('@google/genai').catch(sdkLoadError('Gemini')).then(
        ({ GoogleGenAI: Sdk }) =>
          new Sdk({
            apiKey: options.apiKey,
            // Never Vertex by environment: the engine decides from its own settings.
            vertexai: false,
            httpOptions: {
              baseUrl: options.baseUrl ?? GEMINI_DEFAULT_BASE_URL,
              timeout: options.timeoutMs ?? 600_000,
              ...(options.headers !== undefined ? { headers: options.headers } : {}),
            },
          }),
      ),
    'Gemini',
  )
  const cache =
    options.cache !== undefined ? new GeminiContextCache({ ttlSeconds: options.cache.ttlSeconds }) : undefined
  return {
    provider: 'gemini',
    warm,
    stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<StreamEvent> {
      return runStream(
        'Gemini',
        async function* (attemptSignal) {
          const client = await load()
          // The SDK's errors keep the body but not the headers: this attempt's fetch remembers a
          // failed response's headers so its `retry-after` is honoured.
          let failedHeaders: Headers | undefined
          const attemptFetch: typeof fetch = async (input, init) => {
            const response = await baseFetch(input, init)
            if (!response.ok) failedHeaders = response.headers
            return response
          }
          const send = (parameters: GenerateContentParameters) =>
            client.models.generateContentStream({
              ...parameters,
              config: {
                ...parameters.config,
                abortSignal: attemptSignal,
                httpOptions: { fetch: attemptFetch },
              },
            })
          const plain = toGeminiRequest(request)
          try {
            const prepared =
              cache !== undefined
                ? await cache.prepare(cachesOf(client, baseFetch), plain, attemptSignal)
                : { parameters: plain }
            const entry = prepared.entry
            if (entry === undefined || cache === undefined) {
              yield* geminiEvents(await send(plain))
              return
            }
            let stream: Awaited<ReturnType<typeof send>>
            try {
              stream = await send(prepared.parameters)
            } catch (error) {
              // The server no longer has the cache (expired, deleted): send the whole request.
              if (!isCacheGone(error)) throw error
              cache.forget(entry)
              failedHeaders = undefined
              yield* geminiEvents(await send(plain))
              return
            }
            yield* withCacheWrites(geminiEvents(stream), cache, entry)
          } catch (error) {
            throw normalizeGeminiError(error, failedHeaders)
          }
        },
        retry,
        signal,
        { url: options.baseUrl ?? GEMINI_DEFAULT_BASE_URL, variable: 'GOOGLE_GEMINI_BASE_URL' },
      )
    },
    ...(cache !== undefined
      ? {
          async close(): Promise<void> {
            const client = await load().catch(() => undefined)
            if (client !== undefined) await cache.close(cachesOf(client, baseFetch))
          },
        }
      : {}),
  }
}

/** The SDK's caches module, its calls going through the client's fetch. */
function cachesOf(client: GoogleGenAI, fetchImpl: typeof fetch) {
  return {
    create: (params: Parameters<GoogleGenAI['caches']['create']>[0]) =>
      client.caches.create({ ...params, config: { ...params.config, httpOptions: { fetch: fetchImpl } } }),
    delete: (params: Parameters<GoogleGenAI['caches']['delete']>[0]) =>
      client.caches.delete({ ...params, config: { ...params.config, httpOptions: { fetch: fetchImpl } } }),
  }
}

/** A request naming a cache the server does not have (any more): 403/404, or a 400 about the cache. */
function isCacheGone(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== 'ApiError') return false
  const status = (error as Error & { status?: unknown }).status
  return status === 403 || status === 404 || (status === 400 && /cache/i.test(error.message))
}

/**
 * The usage of a request over a cache it just created: the response counts the whole cache as
 * cached (read) tokens, but this request paid for writing it, so those tokens are reported as cache
 * writes (the catalog prices a Gemini cache write as input plus the cached read of that request).
 */
async function* withCacheWrites(
  events: AsyncIterable<AttemptEvent>,
  cache: GeminiContextCache,
  entry: CacheEntry,
): AsyncGenerator<AttemptEvent> {
  let written: number | undefined
  for await (const event of events) {
    if (event.type !== 'usage') {
      yield event
      continue
    }
    written ??= cache.takeUnreported(entry)
    const moved = Math.min(written, event.usage.cacheReadTokens)
    yield {
      type: 'usage',
      usage: {
        ...event.usage,
        cacheReadTokens: event.usage.cacheReadTokens - moved,
        cacheWriteTokens: event.usage.cacheWriteTokens + moved,
      },
    }
  }
}
