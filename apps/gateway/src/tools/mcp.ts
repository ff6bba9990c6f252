/**
 * Gateway-owned MCP tools: servers a request declares as `{type: "mcp", server_label, server_url}`.
 * Only URLs the operator allowed (`--mcp-allow`) are connected, over Streamable HTTP; their tools are
 * offered to the model as functions named `<label>__<tool>`, run in the gateway, and shown to the client
 * as `mcp_list_tools` and `mcp_call` items. The connection is the engine's (`McpConnection`: one MCP
 * SDK, one client for sessions and the gateway).
 */
import { DEFAULT_MCP_START_TIMEOUT_MS, McpConnection } from '@z-engine/engine/mcp'
import type { GatewayConfig } from '../config.js'
import { type GatewayError, invalidRequest } from '../wire/errors.js'
import { newId } from '../wire/ids.js'
import { isObject, type JsonObject } from '../wire/json.js'
import type { GatewayToolCall, GatewayToolResult, GatewayToolset } from './gateway-tools.js'

/** At most this many MCP servers per request, and discovered tools in all (the spec's ceilings). */
export const MAX_MCP_SERVERS = 64
const MAX_DISCOVERED_TOOLS = 128
const LABEL = /^[a-zA-Z0-9_-]{1,32}$/

interface McpTool {
  label: string
  name: string
  connection: McpConnection
}

/** Connects one declared server; closing on `signal` ends a start that is still waiting. */
async function connect(label: string, url: string, headers: Record<string, string>, signal: AbortSignal) {
  const connection = new McpConnection(
    { name: label, transport: 'http', url, headers, timeoutMs: DEFAULT_MCP_START_TIMEOUT_MS },
    // HTTP servers get no environment; the gateway reads the state after `start` instead of events.
    { baseEnv: {}, events: { changed: () => {} } },
  )
  const abort = () => void connection.close()
  signal.addEventListener('abort', abort, { once: true })
  await connection.start()
  signal.removeEventListener('abort', abort)
  return connection
}

function normalizeUrl(value: string): string | undefined {
  try {
    const url = new URL(value)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
    return url.toString()
  } catch {
    return undefined
  }
}

function allowedNames(value: unknown): Set<string> | undefined {
  if (Array.isArray(value)) return new Set(value.map(String))
  if (isObject(value) && Array.isArray(value.tool_names)) return new Set(value.tool_names.map(String))
  return undefined
}

/** Checks the MCP declarations of a request before anything connects. */
export function checkMcpDeclarations(tools: JsonObject[], config: GatewayConfig): GatewayError | undefined {
  const allowed = new Set(config.mcpServerUrls.map(normalizeUrl).filter((url) => url !== undefined))
  const labels = new Set<string>()
  let count = 0
  for (const [index, tool] of tools.entries()) {
    if (tool.type !== 'mcp') continue
    const at = `tools[${index}]`
    if (++count > MAX_MCP_SERVERS)
      return invalidRequest(`At most ${MAX_MCP_SERVERS} MCP servers per request.`, at)
    const label = tool.server_label
    if (typeof label !== 'string' || !LABEL.test(label))
      return invalidRequest(
        `${at} needs a server_label of 1-32 letters, digits, '_' or '-'.`,
        `${at}.server_label`,
      )
    if (labels.has(label))
      return invalidRequest(`${at} repeats server_label '${label}'.`, `${at}.server_label`)
    labels.add(label)
    const url = typeof tool.server_url === 'string' ? normalizeUrl(tool.server_url) : undefined
    if (!url) return invalidRequest(`${at} needs an http(s) server_url.`, `${at}.server_url`)
    if (!allowed.has(url))
      return invalidRequest(
        `${at}: the MCP server ${url} is not allowed on this gateway (the operator allows servers with --mcp-allow).`,
        `${at}.server_url`,
        'mcp_server_not_allowed',
      )
    if (tool.require_approval !== 'never')
      return invalidRequest(
        `${at}: this gateway does not ask for approvals; set require_approval: "never" for a server you trust.`,
        `${at}.require_approval`,
        'mcp_approval_unsupported',
      )
    if (tool.headers !== undefined && !isObject(tool.headers))
      return invalidRequest(`${at}.headers must be an object of strings.`, `${at}.headers`)
  }
  return undefined
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return ''
  return content
    .map((part) =>
      isObject(part) && part.type === 'text'
        ? String(part.text ?? '')
        : isObject(part)
          ? JSON.stringify(part)
          : '',
    )
    .join('\n')
}

/** Connects the declared servers and lists their tools; an unreachable server refuses the request. */
export async function openMcpToolset(
  tools: JsonObject[],
  signal: AbortSignal,
): Promise<GatewayToolset | GatewayError> {
  const connections: McpConnection[] = []
  const byName = new Map<string, McpTool>()
  const upstreamTools: JsonObject[] = []
  const listItems: JsonObject[] = []
  const close = async (): Promise<void> => {
    await Promise.all(connections.map((connection) => connection.close()))
  }
  for (const [index, tool] of tools.entries()) {
    if (tool.type !== 'mcp') continue
    const label = String(tool.server_label)
    const headers = isObject(tool.headers)
      ? Object.fromEntries(Object.entries(tool.headers).map(([key, value]) => [key, String(value)]))
      : {}
    const connection = await connect(label, String(tool.server_url), headers, signal)
    connections.push(connection)
    if (connection.status !== 'ready') {
      await close()
      const why = signal.aborted ? 'the request was cancelled' : (connection.lastError ?? connection.status)
      return {
        status: 424,
        type: 'upstream_error',
        message: `Could not list the tools of MCP server '${label}': ${why}`,
        param: `tools[${index}].server_url`,
        code: 'mcp_unreachable',
      }
    }
    const only = allowedNames(tool.allowed_tools)
    const kept = connection.tools.filter((entry) => !only || only.has(entry.name))
    for (const entry of kept) {
      if (byName.size >= MAX_DISCOVERED_TOOLS) {
        await close()
        return invalidRequest(
          `The MCP servers offer more than ${MAX_DISCOVERED_TOOLS} tools; narrow them with allowed_tools.`,
          `tools[${index}].allowed_tools`,
        )
      }
      const name = `${label}__${entry.name}`.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64)
      byName.set(name, { label, name: entry.name, connection })
      upstreamTools.push({
        type: 'function',
        name,
        description: entry.description ?? `${entry.name} on MCP server ${label}`,
        parameters: entry.inputSchema as unknown as JsonObject,
        strict: false,
      })
    }
    listItems.push({
      id: newId('mcpl'),
      type: 'mcp_list_tools',
      server_label: label,
      tools: kept.map((entry) => ({
        name: entry.name,
        description: entry.description ?? null,
        input_schema: entry.inputSchema as unknown as JsonObject,
        annotations: (entry.annotations ?? null) as JsonObject | null,
      })),
      error: null,
    })
  }
  const item = (call: GatewayToolCall, id: string, rest: JsonObject): JsonObject => {
    const tool = byName.get(call.name)
    return {
      id,
      type: 'mcp_call',
      server_label: tool?.label ?? '',
      name: tool?.name ?? call.name,
      arguments: call.arguments,
      ...rest,
    }
  }
  return {
    upstreamTools,
    listItems,
    owns: (name) => byName.has(name),
    itemType: () => 'mcp_call',
    eventPrefix: () => 'response.mcp_call',
    runningEvents: () => [],
    startItem: (call, id) => item(call, id, { output: null, error: null, status: 'in_progress' }),
    async execute(call, id, callSignal): Promise<GatewayToolResult> {
      const tool = byName.get(call.name)
      const failed = (message: string): GatewayToolResult => ({
        output: `Error: ${message}`,
        publicItem: item(call, id, { output: null, error: message, status: 'failed' }),
        failed: true,
      })
      if (!tool) return failed(`unknown MCP tool ${call.name}`)
      let args: unknown
      try {
        args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments)
      } catch {
        return failed('the arguments are not valid JSON')
      }
      if (!isObject(args)) return failed('the arguments must be a JSON object')
      try {
        const result = await tool.connection.callTool(tool.name, args, callSignal, () => {})
        const text = textOf(result.content)
        if (result.isError === true) return failed(text || 'the tool reported an error')
        return {
          output: text,
          publicItem: item(call, id, { output: text, error: null, status: 'completed' }),
          failed: false,
        }
      } catch (error) {
        return failed((error as Error).message)
      }
    },
    close,
  }
}
