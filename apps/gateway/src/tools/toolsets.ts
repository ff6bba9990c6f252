/**
 * Which declared tools a request may use. `function` tools are client-owned and pass through; `mcp`
 * tools are gateway-owned (tools/mcp.ts). Any other type is refused: a tool the gateway cannot run is
 * never silently dropped or forwarded (an allowlist, failing closed).
 */
import type { GatewayConfig } from '../config.js'
import type { ToolsetFactory } from '../executor/executor.js'
import { invalidRequest } from '../wire/errors.js'
import { checkMcpDeclarations, openMcpToolset } from './mcp.js'

/** The factory the executor calls once per request. */
export function createToolsets(config: GatewayConfig): ToolsetFactory {
  return async (request, signal) => {
    for (const [index, tool] of request.tools.entries()) {
      if (tool.type === 'function') {
        if (typeof tool.name !== 'string' || tool.name === '')
          return invalidRequest(`tools[${index}] (function) needs a 'name'.`, `tools[${index}].name`)
        continue
      }
      if (tool.type === 'mcp') continue
      return invalidRequest(
        `tools[${index}] has type '${String(tool.type)}', which this gateway does not run; declare 'function' or 'mcp' tools.`,
        `tools[${index}].type`,
        'unsupported_tool',
      )
    }
    const bad = checkMcpDeclarations(request.tools, config)
    if (bad) return bad
    if (!request.tools.some((tool) => tool.type === 'mcp')) return undefined
    return openMcpToolset(request.tools, signal)
  }
}
