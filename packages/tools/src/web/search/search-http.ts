import type { WebSearchHit } from '../search-backend.js'
/** `fetch` as the search backends use it; injectable for embedders with their own HTTP stack. */
export type FetchFunction = typeof globalThis.fetch

/** One search API call's JSON answer, or why there is none (never throws). */
export type JsonAnswer = { ok: true; json: unknown } | { ok: false; message: string }

/** How long a search API call may take. */
export const SEARCH_TIMEOUT_MS = 20_000

/**
 * Sends a request to a search API and parses its JSON answer. HTTP errors, timeouts and bad JSON
 * become messages naming what to check (the key for 401/403, the quota for 429).
 */
export async function requestJson(
  fetchFunction: FetchFunction,
  url: string,
  init: { method?: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  signal: AbortSignal,
): Promise<JsonAnswer> {
  let response: Response
  try {
    response = await fetchFunction(url, {
      method: init.method ?? 'GET',
      headers: { accept: 'application/json', ...init.headers },
      ...(init.body === undefined ? {} : { body: init.body }),
      signal: AbortSignal.any([signal, AbortSignal.timeout(SEARCH_TIMEOUT_MS)]),
    })
  } catch (error) {
    if (signal.aborted) return { ok: false, message: 'the search was cancelled' }
    const name = error instanceof Error ? error.name : ''
    if (name === 'TimeoutError')
      return { ok: false, message: `no answer within ${SEARCH_TIMEOUT_MS / 1000} s` }
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : ''
    return {
      ok: false,
      message: `could not reach the search service (${error instanceof Error ? error.message : String(error)}${cause})`,
    }
  }
  if (!response.ok) {
    const hint =
      response.status === 401 || response.status === 403
        ? ' (check the API key in the environment variable named by web.search.api_key_env)'
        : response.status === 429
          ? ' (rate limit or quota reached; try again later)'
          : ''
    return { ok: false, message: `the search service answered HTTP ${response.status}${hint}` }
  }
  try {
    return { ok: true, json: await response.json() }
  } catch {
    return { ok: false, message: 'the search service answered with something that is not JSON' }
  }
}

/** `site:` operators appended to a query, for backends without domain parameters. */
export function withSiteOperators(query: string, allowed: string[] = [], blocked: string[] = []): string {
  const parts = [query]
  if (allowed.length === 1) parts.push(`site:${allowed[0]}`)
  if (allowed.length > 1) parts.push(`(${allowed.map((domain) => `site:${domain}`).join(' OR ')})`)
  for (const domain of blocked) parts.push(`-site:${domain}`)
  return parts.join(' ')
}

/** Reads a field of an unknown JSON value as a record, or undefined. */
export function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}

/** Reads a string field, or undefined when absent or not a string. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined
}

/**
 * The hits in a backend's result list: items without a URL are skipped, the title falls back to
 * the URL, and `fields` picks the backend's own snippet and date fields. At most `max` hits.
 */
export function hitsFrom(
  results: unknown,
  fields: (item: Record<string, unknown>) => { snippet?: string | undefined; published?: string | undefined },
  max = Number.POSITIVE_INFINITY,
): WebSearchHit[] {
  const hits: WebSearchHit[] = []
  for (const item of Array.isArray(results) ? results : []) {
    const entry = record(item)
    const link = text(entry?.url)
    if (entry === undefined || link === undefined) continue
    const hit: WebSearchHit = { title: text(entry.title) ?? link, url: link }
    const { snippet, published } = fields(entry)
    if (snippet !== undefined) hit.snippet = snippet
    if (published !== undefined) hit.published = published
    hits.push(hit)
    if (hits.length >= max) break
  }
  return hits
}
