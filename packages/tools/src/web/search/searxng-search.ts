import type { WebSearchBackend } from '../search-backend.js'
import { type FetchFunction, hitsFrom, record, requestJson, text, withSiteOperators } from './search-http.js'

/** A WebSearchBackend over a SearXNG instance's JSON API (`format=json` must be enabled on it). */
export function searxngSearchBackend(
  baseUrl: string,
  apiKey: string | undefined,
  fetchFunction: FetchFunction,
): WebSearchBackend {
  return {
    name: 'searxng',
    async search(request, signal) {
      const url = new URL(`${baseUrl.replace(/\/+$/, '')}/search`)
      url.searchParams.set(
        'q',
        withSiteOperators(request.query, request.allowedDomains, request.blockedDomains),
      )
      url.searchParams.set('format', 'json')
      // Instances behind a proxy often want a bearer token; plain instances need none.
      const headers: Record<string, string> =
        apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }
      const answer = await requestJson(fetchFunction, url.href, { headers }, signal)
      if (!answer.ok) {
        return answer.message.includes('HTTP 403')
          ? {
              ok: false,
              message: `${answer.message}; the instance may not allow format=json (enable it under search.formats in its settings.yml)`,
            }
          : answer
      }
      const results = record(answer.json)?.results
      const hits = hitsFrom(
        results,
        (item) => ({ snippet: text(item.content), published: text(item.publishedDate) }),
        request.maxResults,
      )
      return { ok: true, hits }
    },
  }
}
