/**
 * The tools of one Messages request: client tools (`custom`) become upstream functions and round-trip
 * to the client as `tool_use`; native `web_search_20250305` and `web_fetch_20250910` declarations and
 * `mcp_servers` are gateway-owned, offered to the model as functions, run here, and shown to the
 * client as `server_tool_use` / `mcp_tool_use` blocks followed by their result blocks.
 *
 * Budgets live here because only the request sees every round: a web search's `max_uses` counts
 * searches (a call with three queries costs three; a call the rest cannot cover is refused whole and
 * charges nothing; unparsable arguments charge nothing), a web fetch's counts fetches (every admitted
 * call, whatever its outcome; a call without a URL charges nothing).
 */
import type { GatewayConfig } from '../config.js'
import type { GatewayToolset } from '../tools/gateway-tools.js'
import { checkMcpDeclarations, openMcpToolset } from '../tools/mcp.js'
import {
  type DomainPolicy,
  domainAllowed,
  fetchForModel,
  parseFetchUrl,
  readDomainPolicy,
  WEB_FETCH_FUNCTION,
  webFetchFunction,
} from '../tools/web-fetch.js'
import {
  parseSearchQueries,
  searchQueries,
  WEB_SEARCH_FUNCTION,
  webSearchFunction,
} from '../tools/web-search.js'
import { type GatewayError, invalidRequest } from '../wire/errors.js'
import { isObject, type JsonObject } from '../wire/json.js'
import type { MessagesRequest } from './request.js'
import { decodeSearchContent, encodeSearchContent } from './search-content.js'

/** The native tool versions this gateway runs. */
export const WEB_SEARCH_TOOL = 'web_search_20250305'
export const WEB_FETCH_TOOL = 'web_fetch_20250910'

const RESULTS_PER_SEARCH = 5

/** A model's call of a tool, as the round produced it. */
export interface MessagesCall {
  id: string
  name: string
  arguments: string
}

/** A gateway call's result: what the model reads next round and the block the client sees. */
export interface MessagesCallResult {
  output: string
  block: JsonObject
  isError: boolean
}

/** Where URLs the conversation has seen are looked up (Anthropic's rule for web_fetch). */
export interface Provenance {
  has(url: string): boolean
  add(text: string): void
}

/** The gateway tools of one request. */
export interface MessagesTools {
  /** Every function the model sees: client tools first, then gateway tools. */
  readonly upstreamTools: JsonObject[]
  owns(name: string): boolean
  /** The block announcing a gateway call (`server_tool_use` or `mcp_tool_use`). */
  useBlock(call: MessagesCall): JsonObject
  /** Admits the calls in model order (budgets), then runs the admitted ones concurrently. */
  execute(calls: MessagesCall[], provenance: Provenance, signal: AbortSignal): Promise<MessagesCallResult[]>
  /** `usage.server_tool_use` counters so far. */
  serverToolUse(): JsonObject | null
  close(): Promise<void>
}

function inputOf(argumentsText: string): JsonObject {
  try {
    const parsed: unknown = argumentsText.trim() === '' ? {} : JSON.parse(argumentsText)
    return isObject(parsed) ? parsed : {}
  } catch {
    return {}
  }
}

function maxUsesOf(tool: JsonObject, at: string): number | null | GatewayError {
  const value = tool.max_uses
  if (value === undefined || value === null) return null
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    return invalidRequest(`${at}.max_uses must be a positive integer.`, `${at}.max_uses`)
  return value
}

interface SearchDeclaration {
  maxUses: number | null
  policy: DomainPolicy
}

interface FetchDeclaration {
  maxUses: number | null
  policy: DomainPolicy
  maxContentChars?: number
  citations: boolean
}

/** Client tools as upstream functions, native declarations checked; a 400 for anything else. */
function readDeclarations(
  request: MessagesRequest,
  config: GatewayConfig,
  warn: (message: string) => void,
): { client: JsonObject[]; search?: SearchDeclaration; fetch?: FetchDeclaration } | GatewayError {
  const client: JsonObject[] = []
  let search: SearchDeclaration | undefined
  let fetch: FetchDeclaration | undefined
  for (const [index, tool] of request.tools.entries()) {
    const at = `tools[${index}]`
    const type = tool.type === undefined || tool.type === null ? 'custom' : String(tool.type)
    if (type === 'custom') {
      if (tool.input_schema !== undefined && !isObject(tool.input_schema))
        return invalidRequest(`${at}.input_schema must be a JSON schema object.`, `${at}.input_schema`)
      client.push({
        type: 'function',
        name: String(tool.name),
        ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
        parameters: isObject(tool.input_schema) ? tool.input_schema : { type: 'object', properties: {} },
        strict: false,
      })
      continue
    }
    if (type === WEB_SEARCH_TOOL || type === WEB_FETCH_TOOL) {
      const isSearch = type === WEB_SEARCH_TOOL
      const name = isSearch ? WEB_SEARCH_FUNCTION : WEB_FETCH_FUNCTION
      if (tool.name !== name) return invalidRequest(`${at} (${type}) must be named '${name}'.`, `${at}.name`)
      if ((isSearch && search) || (!isSearch && fetch)) return invalidRequest(`Declare ${type} once.`, at)
      if (isSearch ? !config.webSearch : !config.webFetch)
        return invalidRequest(
          isSearch
            ? `${at} is ${type}, but this gateway has no search backend; its operator sets one with --search-backend.`
            : `${at} is ${type}, but this gateway does not fetch pages; its operator enables it with --web-fetch.`,
          `${at}.type`,
          'unsupported_tool',
        )
      if (
        tool.allowed_callers !== undefined &&
        !(Array.isArray(tool.allowed_callers) && tool.allowed_callers.every((caller) => caller === 'direct'))
      )
        return invalidRequest(
          `${at}.allowed_callers: this gateway runs ${name} only when the model calls it directly (["direct"]).`,
          `${at}.allowed_callers`,
          'unsupported_tool',
        )
      const maxUses = maxUsesOf(tool, at)
      if (maxUses !== null && typeof maxUses === 'object') return maxUses
      const policy = readDomainPolicy(tool, at)
      if ('status' in policy) return policy
      if (isSearch) {
        if (tool.user_location !== undefined)
          warn(`${at}.user_location is ignored: the search backend does not localize results.`)
        search = { maxUses, policy }
      } else {
        const tokens = tool.max_content_tokens
        if (tokens !== undefined && tokens !== null && !(Number.isInteger(tokens) && Number(tokens) > 0))
          return invalidRequest(
            `${at}.max_content_tokens must be a positive integer.`,
            `${at}.max_content_tokens`,
          )
        const citations = tool.citations
        if (
          citations !== undefined &&
          citations !== null &&
          !(isObject(citations) && typeof citations.enabled === 'boolean')
        )
          return invalidRequest(`${at}.citations must be {"enabled": true|false}.`, `${at}.citations`)
        fetch = {
          maxUses,
          policy,
          ...(typeof tokens === 'number' ? { maxContentChars: tokens * 4 } : {}),
          citations: isObject(citations) && citations.enabled === true,
        }
      }
      continue
    }
    return invalidRequest(
      `${at} has type '${type}', which this gateway does not run; declare client tools (with input_schema), ${WEB_SEARCH_TOOL} or ${WEB_FETCH_TOOL}.`,
      `${at}.type`,
      'unsupported_tool',
    )
  }
  const names = new Set<string>()
  for (const [index, tool] of request.tools.entries()) {
    const name = String(tool.name)
    if (names.has(name))
      return invalidRequest(`tools[${index}] repeats the name '${name}'.`, `tools[${index}].name`)
    names.add(name)
  }
  return {
    client,
    ...(search ? { search } : {}),
    ...(fetch ? { fetch } : {}),
  }
}

/** MCP connector servers as the Responses side's `mcp` declarations (the same checks and client). */
function mcpDeclarations(servers: JsonObject[]): JsonObject[] {
  return servers.map((server) => {
    const configuration = isObject(server.tool_configuration) ? server.tool_configuration : {}
    return {
      type: 'mcp',
      server_label: server.name ?? '',
      server_url: server.url ?? '',
      require_approval: 'never',
      ...(Array.isArray(configuration.allowed_tools) ? { allowed_tools: configuration.allowed_tools } : {}),
      ...(typeof server.authorization_token === 'string'
        ? { headers: { authorization: `Bearer ${server.authorization_token}` } }
        : {}),
    }
  })
}

/** Checks the request's tools and connects its MCP servers; a 4xx when a declaration cannot run. */
export async function openMessagesTools(
  request: MessagesRequest,
  config: GatewayConfig,
  signal: AbortSignal,
  warn: (message: string) => void,
): Promise<MessagesTools | GatewayError> {
  const declared = readDeclarations(request, config, warn)
  if ('status' in declared) return declared
  for (const [index, server] of request.mcpServers.entries()) {
    if (server.type !== undefined && server.type !== 'url')
      return invalidRequest(`mcp_servers[${index}].type must be 'url'.`, `mcp_servers[${index}].type`)
    if (isObject(server.tool_configuration) && server.tool_configuration.enabled === false)
      return invalidRequest(
        `mcp_servers[${index}] is disabled (tool_configuration.enabled: false); leave it out instead.`,
        `mcp_servers[${index}].tool_configuration`,
      )
  }
  const mcpTools = mcpDeclarations(request.mcpServers)
  const mcpBad = checkMcpDeclarations(mcpTools, config)
  if (mcpBad) return { ...mcpBad, param: mcpBad.param?.replace(/^tools/, 'mcp_servers') ?? null }
  let mcp: GatewayToolset | undefined
  if (mcpTools.length > 0) {
    const opened = await openMcpToolset(mcpTools, signal)
    if (!('upstreamTools' in opened))
      return { ...opened, param: opened.param?.replace(/^tools/, 'mcp_servers') ?? null }
    mcp = opened
  }
  const clientNames = new Set(declared.client.map((tool) => String(tool.name)))
  const clash = mcp?.upstreamTools.find((tool) => clientNames.has(String(tool.name)))
  if (clash) {
    await mcp?.close()
    return invalidRequest(
      `An MCP tool and a client tool are both named '${String(clash.name)}'; rename the client tool.`,
      'tools',
    )
  }
  const { search, fetch } = declared
  const upstreamTools = [
    ...declared.client,
    ...(search && config.webSearch ? [webSearchFunction(config.webSearch.name)] : []),
    ...(fetch ? [webFetchFunction()] : []),
    ...(mcp?.upstreamTools ?? []),
  ]
  let searchesLeft = search?.maxUses ?? Number.POSITIVE_INFINITY
  let fetchesLeft = fetch?.maxUses ?? Number.POSITIVE_INFINITY
  let searches = 0
  let fetches = 0
  const owns = (name: string): boolean =>
    (search !== undefined && name === WEB_SEARCH_FUNCTION) ||
    (fetch !== undefined && name === WEB_FETCH_FUNCTION) ||
    (mcp?.owns(name) ?? false)

  const searchError = (call: MessagesCall, code: string, message: string): MessagesCallResult => ({
    output: `Error (${code}): ${message}`,
    block: {
      type: 'web_search_tool_result',
      tool_use_id: call.id,
      content: { type: 'web_search_tool_result_error', error_code: code },
    },
    isError: true,
  })
  const fetchError = (call: MessagesCall, code: string, message: string): MessagesCallResult => ({
    output: `Error (${code}): ${message}`,
    block: {
      type: 'web_fetch_tool_result',
      tool_use_id: call.id,
      content: { type: 'web_fetch_tool_result_error', error_code: code },
    },
    isError: true,
  })

  /** Admission in model order: the budget decision is made before anything runs. */
  const admit = (
    call: MessagesCall,
    provenance: Provenance,
  ): MessagesCallResult | ((signal: AbortSignal) => Promise<MessagesCallResult>) => {
    if (search && config.webSearch && call.name === WEB_SEARCH_FUNCTION) {
      const backend = config.webSearch
      const queries = parseSearchQueries(call.arguments)
      if (typeof queries === 'string') return searchError(call, 'invalid_tool_input', `${queries}.`)
      if (queries.length > searchesLeft)
        return searchError(
          call,
          'max_uses_exceeded',
          `this call needs ${queries.length} searches but only ${searchesLeft} of max_uses remain.`,
        )
      searchesLeft -= queries.length
      searches += queries.length
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
    if (fetch && config.webFetch && call.name === WEB_FETCH_FUNCTION) {
      const settings = config.webFetch
      const url = parseFetchUrl(call.arguments)
      if (typeof url !== 'string') return fetchError(call, 'invalid_tool_input', `${url.error}.`)
      if (fetchesLeft < 1)
        return fetchError(call, 'max_uses_exceeded', `max_uses (${fetch.maxUses}) fetches were already made.`)
      fetchesLeft -= 1
      fetches += 1
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
    const set = mcp
    if (!set?.owns(call.name))
      return { output: `Error: ${call.name} is not a gateway tool.`, block: {}, isError: true }
    return async (signal) => {
      const result = await set.execute(
        { callId: call.id, name: call.name, arguments: call.arguments },
        call.id,
        signal,
      )
      const text = result.failed ? String(result.publicItem.error ?? result.output) : result.output
      return {
        output: result.output,
        block: {
          type: 'mcp_tool_result',
          tool_use_id: call.id,
          is_error: result.failed,
          content: [{ type: 'text', text }],
        },
        isError: result.failed,
      }
    }
  }

  return {
    upstreamTools,
    owns,
    useBlock(call) {
      if (mcp?.owns(call.name)) {
        const item = mcp.startItem({ callId: call.id, name: call.name, arguments: call.arguments }, call.id)
        return {
          type: 'mcp_tool_use',
          id: call.id,
          name: String(item.name ?? call.name),
          server_name: String(item.server_label ?? ''),
          input: inputOf(call.arguments),
        }
      }
      return { type: 'server_tool_use', id: call.id, name: call.name, input: inputOf(call.arguments) }
    },
    async execute(calls, provenance, signal) {
      const plans = calls.map((call) => admit(call, provenance))
      return Promise.all(
        plans.map((plan) =>
          typeof plan === 'function'
            ? plan(AbortSignal.any([signal, AbortSignal.timeout(config.toolTimeoutMs)])).catch(
                (error: unknown) => ({
                  output: `Error: ${(error as Error).message}`,
                  block: {},
                  isError: true,
                }),
              )
            : Promise.resolve(plan),
        ),
      )
    },
    serverToolUse() {
      if (!search && !fetch) return null
      return {
        ...(search ? { web_search_requests: searches } : {}),
        ...(fetch ? { web_fetch_requests: fetches } : {}),
      }
    },
    close: async () => {
      await mcp?.close()
    },
  }
}

/** The model-facing text of a result block a client sent back in an assistant turn. */
export function resultBlockText(block: JsonObject): string {
  const content = block.content
  if (block.type === 'web_search_tool_result') {
    if (!Array.isArray(content))
      return `Error (${isObject(content) ? String(content.error_code ?? 'unavailable') : 'unavailable'}): the search failed.`
    return content
      .filter(isObject)
      .map((hit, index) => {
        const snippet = decodeSearchContent(hit.encrypted_content)
        return `${index + 1}. ${String(hit.title ?? '')} — ${String(hit.url ?? '')}${snippet ? `\n   ${snippet}` : ''}`
      })
      .join('\n')
  }
  if (block.type === 'web_fetch_tool_result') {
    if (!isObject(content) || content.type !== 'web_fetch_result')
      return `Error (${isObject(content) ? String(content.error_code ?? 'unavailable') : 'unavailable'}): the fetch failed.`
    const document = isObject(content.content) ? content.content : {}
    const source = isObject(document.source) ? document.source : {}
    const title = typeof document.title === 'string' ? `\nTitle: ${document.title}` : ''
    return `URL: ${String(content.url ?? '')}${title}\n\n${String(source.data ?? '')}`
  }
  if (Array.isArray(content))
    return content
      .filter(isObject)
      .map((part) => (part.type === 'text' ? String(part.text ?? '') : JSON.stringify(part)))
      .join('\n')
  return typeof content === 'string' ? content : ''
}
