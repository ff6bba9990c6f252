/** The gateway's settings and their defaults (the spec's ceilings: 16 MiB wire, 8 MiB retained, 10 rounds). */
import type { WebSearchBackend } from '@z-engine/engine/web'
import type { ApiKeyEntry, OidcSettings } from './http/auth.js'
import type { WebFetchSettings } from './tools/web-fetch.js'

/** Ceilings that bound one response; exceeding one ends it `incomplete` (or refuses the request), never an OOM. */
export interface GatewayLimits {
  /** A client request body (413 above it). */
  maxRequestBytes: number
  /** A non-streamed upstream JSON body. */
  maxUpstreamJsonBytes: number
  /** One upstream SSE line. */
  maxSseLineBytes: number
  /** Output, deltas and tool results one response may hold. */
  maxRetainedBytes: number
  /** One serialized client SSE event. */
  maxStreamEventBytes: number
  /** Upstream rounds in one response (gateway tools make more than one). */
  maxRounds: number
  /** `previous_response_id` links followed when rehydrating. */
  maxChainDepth: number
  /** Items a conversation may replay into one request. */
  maxConversationItems: number
}

/** Upstream retry policy for 429/5xx and connection failures (before any byte of a reply). */
export interface RetryPolicy {
  maxRetries: number
  baseDelayMs: number
  maxDelayMs: number
}

/** Everything a running gateway is configured with. */
export interface GatewayConfig {
  /** The inference server's OpenAI base URL, ending in `/v1` (e.g. `http://127.0.0.1:8000/v1`). */
  upstreamUrl: string
  /**
   * What the upstream speaks: `responses` (`POST /responses`, the default) or `chat` (only
   * `POST /chat/completions`; the gateway translates both ways and runs every request itself).
   */
  upstreamApi: 'responses' | 'chat'
  /** Sent upstream as a bearer token, if the inference server wants one. */
  upstreamApiKey?: string
  /** Client bearer tokens (hashed at startup; their requests share the '' tenant). */
  apiKeys: string[]
  /** Keys from the operator's key file: hashes only, each with its tenant and limits. */
  apiKeyEntries: ApiKeyEntry[]
  /** OIDC bearer tokens; with no keys and no OIDC there is no authentication (bind to loopback then). */
  oidc?: OidcSettings
  /** MCP server URLs a request may declare (`type: "mcp"`, `server_url`); anything else is refused. */
  mcpServerUrls: string[]
  /** The backend a `web_search` tool searches with; without one, such a tool is refused. */
  webSearch?: WebSearchBackend
  /** Lets requests declare web fetch (`web_fetch`, `web_fetch_20250910`); without it, such a tool is refused. */
  webFetch?: WebFetchSettings
  limits: GatewayLimits
  retry: RetryPolicy
  /** How long shutdown waits for open streams before cancelling them. */
  drainTimeoutMs: number
  /** Ceiling for one gateway tool call. */
  toolTimeoutMs: number
}

const MiB = 1024 * 1024

/** The defaults. */
export const DEFAULT_LIMITS: GatewayLimits = {
  maxRequestBytes: 16 * MiB,
  maxUpstreamJsonBytes: 16 * MiB,
  maxSseLineBytes: 16 * MiB,
  maxRetainedBytes: 8 * MiB,
  maxStreamEventBytes: 16 * MiB,
  maxRounds: 10,
  maxChainDepth: 1000,
  maxConversationItems: 10_000,
}

/** The default retry policy: three retries, 250 ms doubling, at most 8 s (or the server's Retry-After). */
export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, baseDelayMs: 250, maxDelayMs: 8000 }

/** A config with defaults filled in. */
export function gatewayConfig(
  partial: Partial<Omit<GatewayConfig, 'limits' | 'retry'>> & {
    upstreamUrl: string
    limits?: Partial<GatewayLimits>
    retry?: Partial<RetryPolicy>
  },
): GatewayConfig {
  return {
    upstreamApi: 'responses',
    apiKeys: [],
    apiKeyEntries: [],
    mcpServerUrls: [],
    drainTimeoutMs: 10_000,
    toolTimeoutMs: 60_000,
    ...partial,
    upstreamUrl: partial.upstreamUrl.replace(/\/+$/, ''),
    limits: { ...DEFAULT_LIMITS, ...partial.limits },
    retry: { ...DEFAULT_RETRY, ...partial.retry },
  }
}
