import type { WebSearchBackend } from '../search-backend.js'
import { type FetchFunction, hitsFrom, record, requestJson, text, withSiteOperators } from './search-http.js'

/** The Brave Search API's default base URL. */
export const BRAVE_BASE_URL = 'https://api.search.brave.com/res/v1'

/** A WebSearchBackend over the Brave Search API (`X-Subscription-Token` key). */
export function braveSearchBackend(
  apiKey: string,
  baseUrl: string,
  fetchFunction: FetchFunction,
): WebSearchBackend {
  return {
    name: 'brave',
    async search(request, signal) {
      const url = new URL(`${baseUrl.replace(/\/+$/, '')}/web/search`)
      url.searchParams.set(
        'q',
        withSiteOperators(request.query, request.allowedDomains, request.blockedDomains),
      )
      url.searchParams.set('count', String(Math.min(request.maxResults, 20)))
      const answer = await requestJson(
        fetchFunction,
        url.href,
        { headers: { 'x-subscription-token': apiKey } },
        signal,
      )
      if (!answer.ok) return answer
      const results = record(record(answer.json)?.web)?.results
      const hits = hitsFrom(results, (item) => {
        const snippet = text(item.description)
        return {
          snippet: snippet === undefined ? undefined : stripTags(snippet),
          published: text(item.age) ?? text(item.page_age),
        }
      })
      return { ok: true, hits }
    },
  }
}

// Brave marks the query's words in snippets with <strong>.
function stripTags(snippet: string): string {
  return snippet.replace(/<\/?[a-z][^>]*>/gi, '')
}
