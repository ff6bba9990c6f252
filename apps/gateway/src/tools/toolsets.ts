/**
 * Which declared tools a request may use. `mcp`, `web_fetch` and (with a search backend) web search
 * are gateway-owned (tools/mcp.ts, tools/web-fetch.ts, tools/web-search.ts); every other type is the
 * client's or the upstream's and is forwarded as declared (tools/ownership.ts). The shapes the
 * gateway relies on (a function's or custom tool's `name`, a namespace's `tools`) are checked here.
 */
import type { GatewayConfig } from '../config.js'
import type { ToolsetFactory } from '../executor/executor.js'
import { checkChatTools } from '../upstream/chat-tools.js'
import { type GatewayError, invalidRequest } from '../wire/errors.js'
import { isObject, type JsonObject } from '../wire/json.js'
import { combineToolsets, type GatewayToolset } from './gateway-tools.js'
import { checkMcpDeclarations, openMcpToolset } from './mcp.js'
import { gatewayRuns } from './ownership.js'
import { checkWebFetchDeclarations, openWebFetchToolset } from './web-fetch.js'
import { checkWebSearchDeclarations, openWebSearchToolset } from './web-search.js'

/** The fields the gateway reads from a client tool (it maps names on a Chat upstream). */
function checkClientTool(tool: JsonObject, at: string): GatewayError | undefined {
  if (tool.type === 'function' || tool.type === 'custom') {
    if (typeof tool.name !== 'string' || tool.name === '')
      return invalidRequest(`${at} (${String(tool.type)}) needs a 'name'.`, `${at}.name`)
  }
  if (tool.type === 'namespace') {
    if (typeof tool.name !== 'string' || tool.name === '' || !Array.isArray(tool.tools))
      return invalidRequest(`${at} (namespace) needs a 'name' and a 'tools' list.`, at)
    for (const [index, inner] of tool.tools.entries()) {
      if (!isObject(inner)) return invalidRequest(`${at}.tools[${index}] must be an object.`, at)
      const bad = checkClientTool(inner, `${at}.tools[${index}]`)
      if (bad) return bad
    }
  }
  return undefined
}

/** The factory the executor calls once per request. */
export function createToolsets(config: GatewayConfig): ToolsetFactory {
  return async (request, signal) => {
    for (const [index, tool] of request.tools.entries()) {
      const bad = checkClientTool(tool, `tools[${index}]`)
      if (bad) return bad
    }
    const bad =
      (config.upstreamApi === 'chat'
        ? checkChatTools(request.tools.filter((tool) => !gatewayRuns(tool, config)))
        : undefined) ??
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
