import type { WebSearchBackend } from '../search-backend.js'
import { type FetchFunction, hitsFrom, record, requestJson, text } from './search-http.js'

/** Tavily's default base URL. */
export const TAVILY_BASE_URL = 'https://api.tavily.com'

/** A WebSearchBackend over the Tavily search API (bearer key, native domain filters). */
export function tavilySearchBackend(
  apiKey: string,
  baseUrl: string,
  fetchFunction: FetchFunction,
): WebSearchBackend {
  return {
    name: 'tavily',
    async search(request, signal) {
      const body = {
        query: request.query,
        max_results: Math.min(request.maxResults, 20),
        ...(request.allowedDomains === undefined ? {} : { include_domains: request.allowedDomains }),
        ...(request.blockedDomains === undefined ? {} : { exclude_domains: request.blockedDomains }),
      }
      const answer = await requestJson(
        fetchFunction,
        `${baseUrl.replace(/\/+$/, '')}/search`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        },
        signal,
      )
      if (!answer.ok) return answer
      const results = record(answer.json)?.results
      const hits = hitsFrom(results, (item) => ({
        snippet: text(item.content),
        published: text(item.published_date),
      }))
      return { ok: true, hits }
    },
  }
}
