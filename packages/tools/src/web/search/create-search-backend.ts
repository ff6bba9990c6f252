import type { WebSearchBackend } from '../search-backend.js'
import { BRAVE_BASE_URL, braveSearchBackend } from './brave-search.js'
import type { FetchFunction } from './search-http.js'
import { searxngSearchBackend } from './searxng-search.js'
import { TAVILY_BASE_URL, tavilySearchBackend } from './tavily-search.js'

/** The search backends built in. */
export const SEARCH_BACKENDS = ['brave', 'tavily', 'searxng'] as const

/** What settings `web.search` give, with the key already read from the variable `api_key_env` names. */
export interface SearchBackendConfig {
  backend: string
  apiKey?: string
  baseUrl?: string
}

/**
 * Builds the configured web search backend, or says what is missing (an unknown backend name, a
 * key, a base URL). The engine leaves WebSearch out of the toolset when this fails, with a notice.
 */
export function createSearchBackend(
  config: SearchBackendConfig,
  fetchFunction: FetchFunction = globalThis.fetch,
): { ok: true; backend: WebSearchBackend } | { ok: false; message: string } {
  const name = config.backend.trim().toLowerCase()
  const apiKey = config.apiKey?.trim() || undefined
  const baseUrl = config.baseUrl?.trim() || undefined
  const needKey = (backend: string) => ({
    ok: false as const,
    message: `web.search.backend is '${backend}' but no API key was found; set web.search.api_key_env to the name of the environment variable holding it.`,
  })
  switch (name) {
    case 'brave':
      if (apiKey === undefined) return needKey('brave')
      return { ok: true, backend: braveSearchBackend(apiKey, baseUrl ?? BRAVE_BASE_URL, fetchFunction) }
    case 'tavily':
      if (apiKey === undefined) return needKey('tavily')
      return { ok: true, backend: tavilySearchBackend(apiKey, baseUrl ?? TAVILY_BASE_URL, fetchFunction) }
    case 'searxng':
      if (baseUrl === undefined) {
        return {
          ok: false,
          message:
            "web.search.backend is 'searxng' but web.search.base_url is not set; give the instance's URL.",
        }
      }
      return { ok: true, backend: searxngSearchBackend(baseUrl, apiKey, fetchFunction) }
    default:
      return {
        ok: false,
        message: `Unknown web.search.backend '${config.backend}'; use one of ${SEARCH_BACKENDS.join(', ')}.`,
      }
  }
}
