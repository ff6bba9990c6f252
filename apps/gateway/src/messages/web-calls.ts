import type { GatewayConfig } from '../config.js'
import { domainAllowed, fetchForModel, parseFetchUrl } from '../tools/web-fetch.js'
import { parseSearchQueries, searchQueries } from '../tools/web-search.js'
import { encodeSearchContent } from './search-content.js'
import type { FetchDeclaration, SearchDeclaration } from './tool-declarations.js'
import type { MessagesCall, MessagesCallResult, Provenance } from './tool-types.js'

const RESULTS_PER_SEARCH = 5

/** A call admitted to run (its budget already charged), or its result when refused at admission. */
export type Admission = MessagesCallResult | ((signal: AbortSignal) => Promise<MessagesCallResult>)

/** The web tools' `max_uses` left and their `usage.server_tool_use` counts, for one request. */
export class WebBudget {
  searchesLeft: number
  fetchesLeft: number
  searches = 0
  fetches = 0

  constructor(search: SearchDeclaration | undefined, fetch: FetchDeclaration | undefined) {
    this.searchesLeft = search?.maxUses ?? Number.POSITIVE_INFINITY
    this.fetchesLeft = fetch?.maxUses ?? Number.POSITIVE_INFINITY
  }
}

/** A refused or failed web call: its error for the model, and the result block's error form. */
function webError(
  tool: 'web_search' | 'web_fetch',
  call: MessagesCall,
  code: string,
  message: string,
): MessagesCallResult {
  return {
    output: `Error (${code}): ${message}`,
    block: {
      type: `${tool}_tool_result`,
      tool_use_id: call.id,
      content: { type: `${tool}_tool_result_error`, error_code: code },
    },
    isError: true,
  }
}

function searchError(call: MessagesCall, code: string, message: string): MessagesCallResult {
  return webError('web_search', call, code, message)
}

function fetchError(call: MessagesCall, code: string, message: string): MessagesCallResult {
  return webError('web_fetch', call, code, message)
}

/**
 * A web search call: its queries charged against `max_uses` (a call the rest cannot cover is
 * refused whole and charges nothing), then run; the hits' URLs become fetchable.
 */
export function admitSearch(
  call: MessagesCall,
  backend: NonNullable<GatewayConfig['webSearch']>,
  search: SearchDeclaration,
  budget: WebBudget,
  provenance: Provenance,
): Admission {
  const queries = parseSearchQueries(call.arguments)
  if (typeof queries === 'string') return searchError(call, 'invalid_tool_input', `${queries}.`)
  if (queries.length > budget.searchesLeft)
    return searchError(
      call,
      'max_uses_exceeded',
      `this call needs ${queries.length} searches but only ${budget.searchesLeft} of max_uses remain.`,
    )
  budget.searchesLeft -= queries.length
  budget.searches += queries.length
  return async (signal) => {
    const found = await searchQueries(
      backend,
      queries,
      {
        maxResults: RESULTS_PER_SEARCH,
        ...(search.policy.allowedDomains ? { allowedDomains: search.policy.allowedDomains } : {}),
        ...(search.policy.blockedDomains ? { blockedDomains: search.policy.blockedDomains } : {}),
      },
      signal,
    )
    if (found.failed) return searchError(call, 'unavailable', found.output)
    const hits = found.hits.filter((hit) =>
      search.policy.allowedDomains || search.policy.blockedDomains
        ? domainAllowed(hit.url, search.policy)
        : true,
    )
    for (const hit of hits) provenance.add(hit.url)
    return {
      output: found.output,
      block: {
        type: 'web_search_tool_result',
        tool_use_id: call.id,
        content: hits.map((hit) => ({
          type: 'web_search_result',
          url: hit.url,
          title: hit.title,
          encrypted_content: encodeSearchContent(hit.snippet ?? ''),
          page_age: hit.published ?? null,
        })),
      },
      isError: false,
    }
  }
}

/**
 * A web fetch call: charged against `max_uses` whatever its outcome (a call without a URL charges
 * nothing), and only of a URL the conversation has shown.
 */
export function admitFetch(
  call: MessagesCall,
  settings: NonNullable<GatewayConfig['webFetch']>,
  fetch: FetchDeclaration,
  budget: WebBudget,
  provenance: Provenance,
): Admission {
  const url = parseFetchUrl(call.arguments)
  if (typeof url !== 'string') return fetchError(call, 'invalid_tool_input', `${url.error}.`)
  if (budget.fetchesLeft < 1)
    return fetchError(call, 'max_uses_exceeded', `max_uses (${fetch.maxUses}) fetches were already made.`)
  budget.fetchesLeft -= 1
  budget.fetches += 1
  if (!provenance.has(url))
    return fetchError(
      call,
      'url_not_allowed',
      `${url} has not appeared in the conversation (a user message, a tool result or a search result); only such URLs can be fetched.`,
    )
  return async (signal) => {
    const outcome = await fetchForModel(
      url,
      settings,
      {
        ...fetch.policy,
        ...(fetch.maxContentChars === undefined ? {} : { maxContentChars: fetch.maxContentChars }),
      },
      signal,
    )
    if (!outcome.ok) return fetchError(call, outcome.code, outcome.message)
    provenance.add(outcome.text)
    return {
      output: outcome.output,
      block: {
        type: 'web_fetch_tool_result',
        tool_use_id: call.id,
        content: {
          type: 'web_fetch_result',
          url: outcome.finalUrl,
          content: {
            type: 'document',
            source: { type: 'text', media_type: 'text/plain', data: outcome.text },
            title: outcome.title ?? null,
            ...(fetch.citations ? { citations: { enabled: true } } : {}),
          },
          retrieved_at: new Date().toISOString(),
        },
      },
      isError: false,
    }
  }
}
