import type { GatewayConfig } from '../config.js'
import { type DomainPolicy, readDomainPolicy, WEB_FETCH_FUNCTION } from '../tools/web-fetch.js'
import { WEB_SEARCH_FUNCTION } from '../tools/web-search.js'
import { type GatewayError, invalidRequest } from '../wire/errors.js'
import { isObject, type JsonObject } from '../wire/json.js'
import type { MessagesRequest } from './request.js'

/** The native tool versions this gateway runs. */
export const WEB_SEARCH_TOOL = 'web_search_20250305'
export const WEB_FETCH_TOOL = 'web_fetch_20250910'

function maxUsesOf(tool: JsonObject, at: string): number | null | GatewayError {
  const value = tool.max_uses
  if (value === undefined || value === null) return null
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    return invalidRequest(`${at}.max_uses must be a positive integer.`, `${at}.max_uses`)
  return value
}

/** A `web_search` declaration as checked: its budget and domain policy. */
export interface SearchDeclaration {
  maxUses: number | null
  policy: DomainPolicy
}

/** A `web_fetch` declaration as checked. */
export interface FetchDeclaration {
  maxUses: number | null
  policy: DomainPolicy
  maxContentChars?: number
  citations: boolean
}

/** Client tools as upstream functions, native declarations checked; a 400 for anything else. */
export function readDeclarations(
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
export function mcpDeclarations(servers: JsonObject[]): JsonObject[] {
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

/** `mcp_servers` entries this gateway can connect: `url` servers, not disabled ones. */
export function checkMcpServers(request: MessagesRequest): GatewayError | undefined {
  for (const [index, server] of request.mcpServers.entries()) {
    if (server.type !== undefined && server.type !== 'url')
      return invalidRequest(`mcp_servers[${index}].type must be 'url'.`, `mcp_servers[${index}].type`)
    if (isObject(server.tool_configuration) && server.tool_configuration.enabled === false)
      return invalidRequest(
        `mcp_servers[${index}] is disabled (tool_configuration.enabled: false); leave it out instead.`,
        `mcp_servers[${index}].tool_configuration`,
      )
  }
  return undefined
}
