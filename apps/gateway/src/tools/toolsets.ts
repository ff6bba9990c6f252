/**
 * Which declared tools a request may use. `function` tools are client-owned and pass through; any
 * other type is gateway-owned and must have an implementation here, else the request is refused
 * (an allowlist: a tool type the gateway cannot run is never silently dropped or forwarded).
 */
import type { GatewayConfig } from '../config.js'
import type { ToolsetFactory } from '../executor/executor.js'
import { invalidRequest } from '../wire/errors.js'

/** The factory the executor calls once per request. */
export function createToolsets(_config: GatewayConfig): ToolsetFactory {
  return async (request) => {
    for (const [index, tool] of request.tools.entries()) {
      if (tool.type === 'function') {
        if (typeof tool.name !== 'string' || tool.name === '')
          return invalidRequest(`tools[${index}] (function) needs a 'name'.`, `tools[${index}].name`)
        continue
      }
      return invalidRequest(
        `tools[${index}] has type '${String(tool.type)}', which this gateway does not run; declare 'function' tools.`,
        `tools[${index}].type`,
        'unsupported_tool',
      )
    }
    return undefined
  }
}
