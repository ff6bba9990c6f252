import { lazyOpenAi } from '../openai-sdk.js'
import { type RetryOptions, resolveRetryOptions } from '../retry.js'
import { runStream } from '../run-stream.js'
import type { SdkConnection } from '../sdk-options.js'
import type { ModelClient, ModelRequest, StreamEvent } from '../types.js'
import { toResponsesRequest } from './request.js'
import { responsesEvents } from './stream.js'

/** Connection settings for {@link createResponsesClient}. */
export interface ResponsesClientOptions extends SdkConnection {
  /** Including `/v1`. */
  baseUrl?: string
  retry?: RetryOptions
}

/** A Responses API client. The SDK loads on the first request. */
export function createResponsesClient(options: ResponsesClientOptions): ModelClient {
  const retry = resolveRetryOptions(options.retry)
  const { load, warm } = lazyOpenAi(options)
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
        { url: options.baseUrl ?? 'https://api.openai.com/v1', variable: 'OPENAI_BASE_URL' },
      )
    },
  }
}
