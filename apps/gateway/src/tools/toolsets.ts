/**
 * Which declared tools a request may use. `function` tools are client-owned and pass through; `mcp`
 * and web search tools are gateway-owned (tools/mcp.ts, tools/web-search.ts). Any other type is
 * refused: a tool the gateway cannot run is never silently dropped or forwarded (an allowlist,
 * failing closed).
 */
import type { GatewayConfig } from '../config.js'
import type { ToolsetFactory } from '../executor/executor.js'
import { invalidRequest } from '../wire/errors.js'
import { combineToolsets, type GatewayToolset } from './gateway-tools.js'
import { checkMcpDeclarations, openMcpToolset } from './mcp.js'
import { checkWebFetchDeclarations, openWebFetchToolset } from './web-fetch.js'
import { checkWebSearchDeclarations, openWebSearchToolset, WEB_SEARCH_TYPES } from './web-search.js'

/** The factory the executor calls once per request. */
export function createToolsets(config: GatewayConfig): ToolsetFactory {
  return async (request, signal) => {
    for (const [index, tool] of request.tools.entries()) {
      if (tool.type === 'function') {
        if (typeof tool.name !== 'string' || tool.name === '')
          return invalidRequest(`tools[${index}] (function) needs a 'name'.`, `tools[${index}].name`)
        continue
      }
      if (tool.type === 'mcp' || tool.type === 'web_fetch' || WEB_SEARCH_TYPES.has(String(tool.type)))
        continue
      return invalidRequest(
        `tools[${index}] has type '${String(tool.type)}', which this gateway does not run; declare 'function', 'mcp', 'web_search' or 'web_fetch' tools.`,
        `tools[${index}].type`,
        'unsupported_tool',
      )
    }
    const bad =
      checkMcpDeclarations(request.tools, config) ??
      checkWebSearchDeclarations(request.tools, config.webSearch) ??
      checkWebFetchDeclarations(request.tools, config.webFetch)
    if (bad) return bad
    const sets: GatewayToolset[] = []
    const web = config.webSearch ? openWebSearchToolset(request.tools, config.webSearch) : undefined
    if (web) sets.push(web)
    const fetcher = config.webFetch ? openWebFetchToolset(request.tools, config.webFetch) : undefined
    if (fetcher) sets.push(fetcher)
    if (request.tools.some((tool) => tool.type === 'mcp')) {
      const mcp = await openMcpToolset(request.tools, signal)
      if (!('upstreamTools' in mcp)) return mcp
      sets.push(mcp)
    }
    return combineToolsets(sets)
  }
}
