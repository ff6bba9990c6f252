/** The Anthropic Messages client: the SDK (imported lazily) streaming raw events with its retries off. */
import type Anthropic from '@anthropic-ai/sdk'
import { lazySdk, sdkLoadError } from '../lazy-sdk.js'
import { type RetryOptions, resolveRetryOptions } from '../retry.js'
import { runStream } from '../run-stream.js'
import { type SdkConnection, sdkClientOptions } from '../sdk-options.js'
import type { ModelClient, ModelRequest, StreamEvent } from '../types.js'
import { toAnthropicRequest } from './request.js'
import { anthropicEvents } from './stream.js'

/** Connection settings for {@link createAnthropicClient}. */
export interface AnthropicClientOptions extends SdkConnection {
  /** Without `/v1`; the SDK appends `/v1/messages`. */
  baseUrl?: string
  retry?: RetryOptions
  /** Prompt-cache breakpoints (default on; `provider.cache_control = false` turns them off). */
  cacheControl?: boolean
}

/** A Messages API client. The SDK loads on the first request, so startup does not pay for it. */
export function createAnthropicClient(options: AnthropicClientOptions): ModelClient {
  const retry = resolveRetryOptions(options.retry)
  const { load, warm } = lazySdk<Anthropic>(
    () =>
      import('@anthropic-ai/sdk')
        .catch(sdkLoadError('Anthropic'))
        .then(({ default: AnthropicSdk }) => new AnthropicSdk(sdkClientOptions(options))),
    'Anthropic',
  )
  return {
    provider: 'anthropic',
    warm,
    stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<StreamEvent> {
      return runStream(
        'Anthropic',
        async function* (attemptSignal) {
          const client = await load()
          const raw = await client.messages.create(
            toAnthropicRequest(request, options.cacheControl ?? true),
            { signal: attemptSignal },
          )
          yield* anthropicEvents(raw)
        },
        retry,
        signal,
      )
    },
  }
}
