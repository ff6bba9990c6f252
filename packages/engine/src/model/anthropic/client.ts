/** The Anthropic Messages client: the SDK (imported lazily) streaming raw events with its retries off. */
import type { Messages } from '@anthropic-ai/sdk/resources/messages'
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

/**
 * A Messages API client. The SDK loads on the first request (or `warm()`), so startup does not pay
 * for it. Only the SDK's base client and its Messages resource are loaded, not the `Anthropic` class,
 * which builds every resource of the API (models, files, skills, organization, beta…): a bundle then
 * carries a third of the SDK's code (issue 17: 0.75 → 0.24 MB minified, compiled before the first
 * request).
 */
export function createAnthropicClient(options: AnthropicClientOptions): ModelClient {
  const retry = resolveRetryOptions(options.retry)
  const { load, warm } = lazySdk<Messages>(
    () =>
      Promise.all([
        import('@anthropic-ai/sdk/client').catch(sdkLoadError('Anthropic')),
        import('@anthropic-ai/sdk/resources/messages').catch(sdkLoadError('Anthropic')),
      ]).then(
        ([{ BaseAnthropic }, { Messages }]) => new Messages(new BaseAnthropic(sdkClientOptions(options))),
      ),
    'Anthropic',
  )
  return {
    provider: 'anthropic',
    warm,
    stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<StreamEvent> {
      return runStream(
        'Anthropic',
        async function* (attemptSignal) {
          const messages = await load()
          const raw = await messages.create(toAnthropicRequest(request, options.cacheControl ?? true), {
            signal: attemptSignal,
          })
          yield* anthropicEvents(raw)
        },
        retry,
        signal,
        { url: options.baseUrl ?? 'https://api.anthropic.com', variable: 'ANTHROPIC_BASE_URL' },
      )
    },
  }
}
