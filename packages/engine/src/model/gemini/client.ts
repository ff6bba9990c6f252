/** The Gemini client: Google's `@google/genai` SDK (imported lazily) streaming with its retries off. */
import type { GoogleGenAI } from '@google/genai'
import { lazySdk, sdkLoadError } from '../lazy-sdk.js'
import { type RetryOptions, resolveRetryOptions } from '../retry.js'
import { runStream } from '../run-stream.js'
import type { SdkConnection } from '../sdk-options.js'
import type { ModelClient, ModelRequest, StreamEvent } from '../types.js'
import { normalizeGeminiError } from './errors.js'
import { toGeminiRequest } from './request.js'
import { geminiEvents } from './stream.js'

/** The Gemini API's own address; a base URL override replaces it (local servers, proxies). */
export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com'

/** Connection settings for {@link createGeminiClient}. */
export interface GeminiClientOptions extends SdkConnection {
  /** Without the API version; the SDK appends `/v1beta/models/<id>:streamGenerateContent`. */
  baseUrl?: string
  retry?: RetryOptions
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
          const parameters = toGeminiRequest(request)
          parameters.config = {
            ...parameters.config,
            abortSignal: attemptSignal,
            httpOptions: { fetch: attemptFetch },
          }
          try {
            yield* geminiEvents(await client.models.generateContentStream(parameters))
          } catch (error) {
            throw normalizeGeminiError(error, failedHeaders)
          }
        },
        retry,
        signal,
      )
    },
  }
}
