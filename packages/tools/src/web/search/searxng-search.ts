import type { WebSearchBackend, WebSearchHit } from '../search-backend.js'
import { type FetchFunction, record, requestJson, text, withSiteOperators } from './search-http.js'

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
      const hits: WebSearchHit[] = []
      for (const item of Array.isArray(results) ? results : []) {
        const fields = record(item)
        const link = text(fields?.url)
        if (fields === undefined || link === undefined) continue
        const hit: WebSearchHit = { title: text(fields.title) ?? link, url: link }
        const snippet = text(fields.content)
        if (snippet !== undefined) hit.snippet = snippet
        const published = text(fields.publishedDate)
        if (published !== undefined) hit.published = published
        hits.push(hit)
        if (hits.length >= request.maxResults) break
      }
      return { ok: true, hits }
    },
  }
}
