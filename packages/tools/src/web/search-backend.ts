/** One web search hit. */
export interface WebSearchHit {
  title: string
  url: string
  /** A short excerpt of the page around the query. */
  snippet?: string
  /** When the page was published, as the backend gives it (ISO date or free text). */
  published?: string
}

/** What WebSearch asks of a backend. */
export interface WebSearchRequest {
  query: string
  /** Only results from these domains (or their subdomains); the tool filters again after. */
  allowedDomains?: string[]
  /** No results from these domains (or their subdomains); the tool filters again after. */
  blockedDomains?: string[]
  maxResults: number
}

/**
 * A configured web search service (settings `web.search.backend`). The engine builds one from
 * settings; WebSearch exists in the toolset only when one is configured. Must not throw: a failure
 * is a value whose message says what went wrong (quota, key, network).
 */
export interface WebSearchBackend {
  /** The backend's name, for titles and messages (e.g. "brave", "searxng"). */
  readonly name: string
  search(
    request: WebSearchRequest,
    signal: AbortSignal,
  ): Promise<{ ok: true; hits: WebSearchHit[] } | { ok: false; message: string }>
}
