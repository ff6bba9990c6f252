/** The Chat Completions client: the `openai` SDK (imported lazily) with its retries off. */
import type OpenAI from 'openai'
import { lazyOpenAi } from '../openai-sdk.js'
import { type RetryOptions, resolveRetryOptions } from '../retry.js'
import { runStream } from '../run-stream.js'
import type { SdkConnection } from '../sdk-options.js'
import type { ModelClient, ModelRequest, ProviderName, StreamEvent } from '../types.js'
import { type ChatDialect, toChatRequest } from './request.js'
import { type ChatChunk, chatEvents } from './stream.js'

/** Connection settings for {@link createChatClient}. */
export interface ChatClientOptions extends SdkConnection {
  /** Including `/v1` (e.g. `http://localhost:8000/v1`). */
  baseUrl?: string
  retry?: RetryOptions
  /** Defaults: no cache_control, `max_tokens`, `reasoning_effort`. */
  dialect?: Partial<ChatDialect>
  /** Reported as the client's provider (`openai-chat` or `openrouter`). */
  provider?: Extract<ProviderName, 'openai-chat' | 'openrouter'>
}

/** A Chat Completions client for OpenAI or any compatible server. The SDK loads on the first request. */
export function createChatClient(options: ChatClientOptions): ModelClient {
  const retry = resolveRetryOptions(options.retry)
  const dialect: ChatDialect = {
    cacheControl: options.dialect?.cacheControl ?? false,
    maxTokensField: options.dialect?.maxTokensField ?? 'max_tokens',
    reasoningField: options.dialect?.reasoningField ?? 'reasoning_effort',
  }
  const { load, warm } = lazyOpenAi(options)
  const provider = options.provider ?? 'openai-chat'
  const label = provider === 'openrouter' ? 'OpenRouter' : 'OpenAI-compatible'
  const endpoint =
    provider === 'openrouter'
      ? { url: options.baseUrl ?? 'https://openrouter.ai/api/v1' }
      : { url: options.baseUrl ?? 'https://api.openai.com/v1', variable: 'OPENAI_BASE_URL' }
  return {
    provider,
    warm,
    stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<StreamEvent> {
      return runStream(
        label,
        async function* (attemptSignal) {
          const client = await load()
          // Our body carries fields the SDK's types do not know (cache_control, reasoning); the SDK
          // sends the body as given.
          const body = toChatRequest(
            request,
            dialect,
          ) as unknown as OpenAI.ChatCompletionCreateParamsStreaming
          const chunks = await client.chat.completions.create(body, { signal: attemptSignal })
          yield* chatEvents(chunks as AsyncIterable<ChatChunk>)
        },
        retry,
        signal,
        endpoint,
      )
    },
  }
}
