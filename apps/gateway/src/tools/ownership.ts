/**
 * Who runs a declared tool. The gateway runs `mcp`, `web_fetch` and — when its operator configured a
 * search backend — `web_search`; every other tool (`function`, `custom`, `namespace`, `tool_search`,
 * `local_shell`, `computer_use_preview`, hosted types, types that do not exist yet) belongs to the
 * client or the upstream: it is forwarded as declared and its calls come back to the client.
 */
import type { GatewayConfig } from '../config.js'
import type { JsonObject } from '../wire/json.js'
import { WEB_SEARCH_TYPES } from './web-search.js'

/** True when the gateway itself runs this declared tool. */
export function gatewayRuns(tool: JsonObject, config: Pick<GatewayConfig, 'webSearch'>): boolean {
  const type = String(tool.type)
  if (type === 'mcp' || type === 'web_fetch') return true
  return WEB_SEARCH_TYPES.has(type) && config.webSearch !== undefined
}

/**
 * True for an output item the client has to answer: a call with a `call_id` (`function_call`,
 * `custom_tool_call`, `local_shell_call`, `computer_call`, a client `tool_search_call`, …).
 */
export function isClientCall(item: JsonObject): boolean {
  const type = String(item.type)
  if (!type.endsWith('_call') || typeof item.call_id !== 'string' || item.call_id === '') return false
  return !(type === 'tool_search_call' && item.execution === 'server')
}
