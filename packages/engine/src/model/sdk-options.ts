/** How to reach a provider: what every SDK-backed client takes. */
export interface SdkConnection {
  apiKey: string
  baseUrl?: string
  headers?: Record<string, string>
  /** A fetch implementation (proxies, tests, benchmarks); default the global fetch. */
  fetch?: typeof fetch
  /** Per-request timeout (default 10 minutes). */
  timeoutMs?: number
}

/**
 * The constructor options both SDKs (`@anthropic-ai/sdk`, `openai`) share. Their own retries are off
 * so ours are the only ones and each is announced as a `retrying` event.
 */
export function sdkClientOptions(connection: SdkConnection) {
  return {
    apiKey: connection.apiKey,
    ...(connection.baseUrl !== undefined ? { baseURL: connection.baseUrl } : {}),
    ...(connection.headers !== undefined ? { defaultHeaders: connection.headers } : {}),
    ...(connection.fetch !== undefined ? { fetch: connection.fetch } : {}),
    maxRetries: 0,
    timeout: connection.timeoutMs ?? 600_000,
  }
}
