/**
 * Gateway-owned web search: a request declares `{type: "web_search"}` (or `web_search_preview`) and
 * the gateway searches with the backend its operator configured (`--search-backend`: Brave, Tavily
 * or SearXNG, the engine's WebSearch backends). The model sees one function, `web_search`, taking
 * one to five queries; the client sees a `web_search_call` item with the queries and the sources.
 */
import type { WebSearchBackend, WebSearchHit } from '@z-engine/engine/web'
import { type GatewayError, invalidRequest } from '../wire/errors.js'
import { isObject, type JsonObject } from '../wire/json.js'
import type { GatewayToolCall, GatewayToolResult, GatewayToolset } from './gateway-tools.js'

/** The declared tool types this toolset runs. */
export const WEB_SEARCH_TYPES: ReadonlySet<string> = new Set([
  'web_search',
  'web_search_preview',
  'web_search_2025_08_26',
  'web_search_preview_2025_03_11',
])

/** The function name the model calls; a client function of the same name is refused. */
export const WEB_SEARCH_FUNCTION = 'web_search'

/** At most this many queries in one search call (the spec's ceiling). */
export const MAX_QUERIES = 5

const RESULTS_PER_QUERY = { low: 3, medium: 5, high: 10 } as const

function declaredDomains(tool: JsonObject): string[] | undefined {
  const filters = tool.filters
  if (!isObject(filters) || !Array.isArray(filters.allowed_domains)) return undefined
  return filters.allowed_domains.map(String)
}

/** Checks a request's web search declarations before anything runs. */
export function checkWebSearchDeclarations(
  tools: JsonObject[],
  backend: WebSearchBackend | undefined,
): GatewayError | undefined {
  // Without a backend, web search is not the gateway's: the declaration goes to the upstream.
  if (!backend) return undefined
  let declared = 0
  for (const [index, tool] of tools.entries()) {
    const at = `tools[${index}]`
    if (
      tool.type === 'function' &&
      tool.name === WEB_SEARCH_FUNCTION &&
      tools.some((t) => WEB_SEARCH_TYPES.has(String(t.type)))
    )
      return invalidRequest(
        `${at} declares a function named '${WEB_SEARCH_FUNCTION}' beside the web search tool; rename the function.`,
        `${at}.name`,
      )
    if (!WEB_SEARCH_TYPES.has(String(tool.type))) continue
    if (++declared > 1) return invalidRequest('Declare the web search tool once.', at)
    const filters = tool.filters
    if (
      filters !== undefined &&
      filters !== null &&
      (!isObject(filters) ||
        (filters.allowed_domains !== undefined && !Array.isArray(filters.allowed_domains)))
    )
      return invalidRequest(`${at}.filters.allowed_domains must be a list of domains.`, `${at}.filters`)
  }
  return undefined
}

/** The queries of a search call (the model's arguments), or why there are none; the one parser budgets count with. */
export function parseSearchQueries(argumentsText: string): string[] | string {
  let args: unknown
  try {
    args = argumentsText.trim() === '' ? {} : JSON.parse(argumentsText)
  } catch {
    return 'the arguments are not valid JSON'
  }
  if (!isObject(args)) return 'the arguments must be a JSON object'
  const list = Array.isArray(args.queries) ? args.queries : typeof args.query === 'string' ? [args.query] : []
  const queries = list.filter((query): query is string => typeof query === 'string' && query.trim() !== '')
  if (queries.length === 0) return 'give one to five non-empty queries in "queries"'
  if (queries.length > MAX_QUERIES) return `at most ${MAX_QUERIES} queries per search (got ${queries.length})`
  return queries.map((query) => query.trim())
}

/** One query's hits as the text the model reads. */
export function renderHits(query: string, hits: readonly WebSearchHit[]): string {
  if (hits.length === 0) return `Results for "${query}": none.`
  const lines = hits.map((hit, index) => {
    const meta = [hit.url, hit.published].filter(Boolean).join(' · ')
    return `${index + 1}. ${hit.title} — ${meta}${hit.snippet ? `\n   ${hit.snippet}` : ''}`
  })
  return [`Results for "${query}":`, ...lines].join('\n')
}

/** The function the model sees for web search (one to five queries). */
export function webSearchFunction(backendName: string): JsonObject {
  return {
    type: 'function',
    name: WEB_SEARCH_FUNCTION,
    description: `Searches the web (${backendName}) and returns titles, URLs and excerpts. Give one to ${MAX_QUERIES} queries; use it for facts newer than your training or that you must cite.`,
    parameters: {
      type: 'object',
      properties: {
        queries: {
          type: 'array',
          items: { type: 'string' },
          minItems: 1,
          maxItems: MAX_QUERIES,
          description: 'What to search for, one query per entry.',
        },
      },
      required: ['queries'],
      additionalProperties: false,
    },
    strict: false,
  }
}

/** The web search toolset of one request, or undefined when it declares none. */
export function openWebSearchToolset(
  tools: JsonObject[],
  backend: WebSearchBackend,
): GatewayToolset | undefined {
  const declaration = tools.find((tool) => WEB_SEARCH_TYPES.has(String(tool.type)))
  if (!declaration) return undefined
  const allowedDomains = declaredDomains(declaration)
  const size = String(declaration.search_context_size ?? 'medium')
  const maxResults = RESULTS_PER_QUERY[size as keyof typeof RESULTS_PER_QUERY] ?? RESULTS_PER_QUERY.medium
  const item = (call: GatewayToolCall, id: string, rest: JsonObject): JsonObject => {
    const queries = parseSearchQueries(call.arguments)
    const list = typeof queries === 'string' ? [] : queries
    return {
      id,
      type: 'web_search_call',
      action: { type: 'search', query: list[0] ?? '', queries: list, ...rest },
      status: 'in_progress',
    }
  }
  return {
    upstreamTools: [webSearchFunction(backend.name)],
    listItems: [],
    owns: (name) => name === WEB_SEARCH_FUNCTION,
    itemType: () => 'web_search_call',
    eventPrefix: () => 'response.web_search_call',
    runningEvents: () => ['searching'],
    startItem: (call, id) => item(call, id, {}),
    async execute(call, id, signal): Promise<GatewayToolResult> {
      const queries = parseSearchQueries(call.arguments)
      if (typeof queries === 'string')
        return {
          output: `Error: ${queries}.`,
          publicItem: { ...item(call, id, {}), status: 'failed' },
          failed: true,
        }
      const searched = await searchQueries(
        backend,
        queries,
        { maxResults, ...(allowedDomains ? { allowedDomains } : {}) },
        signal,
      )
      const sources = searched.hits.map((hit) => ({ type: 'url', url: hit.url }))
      return {
        output: searched.output,
        publicItem: {
          ...item(call, id, searched.failed ? {} : { sources }),
          status: searched.failed ? 'failed' : 'completed',
        },
        failed: searched.failed,
      }
    },
    close: async () => {},
  }
}

/** What searching a call's queries found: the model's text, the distinct hits, and whether all failed. */
export interface SearchOutcome {
  output: string
  hits: WebSearchHit[]
  failed: boolean
}

/** Runs every query at once on the backend (the Responses and Messages tools share this). */
export async function searchQueries(
  backend: WebSearchBackend,
  queries: readonly string[],
  options: { maxResults: number; allowedDomains?: string[]; blockedDomains?: string[] },
  signal: AbortSignal,
): Promise<SearchOutcome> {
  const answers = await Promise.all(queries.map((query) => backend.search({ query, ...options }, signal)))
  const failures = answers.flatMap((answer) => (answer.ok ? [] : [answer.message]))
  if (failures.length === answers.length)
    return { output: `Error: the search failed: ${failures.join('; ')}`, hits: [], failed: true }
  const sections = queries.map((query, index) => {
    const answer = answers[index]
    return answer?.ok
      ? renderHits(query, answer.hits)
      : `Results for "${query}": the search failed (${answer?.message}).`
  })
  const seen = new Set<string>()
  const hits = answers
    .flatMap((answer) => (answer.ok ? answer.hits : []))
    .filter((hit) => !seen.has(hit.url) && seen.add(hit.url) !== undefined)
  return { output: sections.join('\n\n'), hits, failed: false }
}
