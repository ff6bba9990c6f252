/**
 * @z-engine/engine/web: web search backends and WebFetch's page-as-text reader (the gateway's hosted tools). For the repository's own apps (the CLI, the gateway); unstable: names
 * and shapes may change between minor versions. An embedder uses `@z-engine/engine`.
 */

/** Web search backends (Brave, Tavily, SearXNG) and WebFetch's page-as-text reader, for the gateway. */
export type { FetchWebTextOptions, WebSearchBackend, WebSearchHit } from '@z-engine/tools'
/** The search backend factory, the backend names, and one page as text with WebFetch's address checks. */
export { createSearchBackend, fetchWebText, SEARCH_BACKENDS } from '@z-engine/tools'
