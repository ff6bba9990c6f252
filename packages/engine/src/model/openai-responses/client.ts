/** The OpenAI Responses client: the `openai` SDK (imported lazily) with its retries off. */
import type OpenAI from 'openai'
import { lazySdk } from '../lazy-sdk.js'
import { type RetryOptions, resolveRetryOptions } from '../retry.js'
import { runStream } from '../run-stream.js'
import type { ModelClient, ModelRequest, StreamEvent } from '../types.js'
import { toResponsesRequest } from './request.js'
import { responsesEvents } from './stream.js'

/** Connection settings for {@link createResponsesClient}. */
export interface ResponsesClientOptions {
  apiKey: string
  /** Including `/v1`. */
  baseUrl?: string
  headers?: Record<string, string>
  retry?: RetryOptions
  /** A fetch implementation (proxies, tests, benchmarks); default the global fetch. */
  fetch?: typeof fetch
  timeoutMs?: number
}

/** A Responses API client. The SDK loads on the first request. */
export function createResponsesClient(options: ResponsesClientOptions): ModelClient {
  const retry = resolveRetryOptions(options.retry)
  const { load, warm } = lazySdk<OpenAI>(
    () =>
      import('openai').then(
        ({ default: OpenAISdk }) =>
          new OpenAISdk({
            apiKey: options.apiKey,
            ...(options.baseUrl !== undefined ? { baseURL: options.baseUrl } : {}),
            ...(options.headers !== undefined ? { defaultHeaders: options.headers } : {}),
            ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
            maxRetries: 0,
            timeout: options.timeoutMs ?? 600_000,
          }),
      ),
    'OpenAI',
  )
  return {
    provider: 'openai',
    warm,
    stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<StreamEvent> {
      return runStream(
        'OpenAI',
        async function* (attemptSignal) {
          const client = await load()
          const events = await client.responses.create(toResponsesRequest(request), { signal: attemptSignal })
          yield* responsesEvents(events)
        },
        retry,
        signal,
      )
    },
  }
}
