import type { Tool as SdkTool } from '@modelcontextprotocol/client'
import type { JsonSchema } from '@z-engine/protocol'
import type { Tool, ToolCtx, ToolResult } from '@z-engine/tools'

/** Tool names providers accept (OpenAI's limit is the tightest: 64 characters). */
const MAX_TOOL_NAME = 64

/** The model-facing name of a server's tool: `mcp__<server>__<tool>`, other characters as `_`. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, MAX_TOOL_NAME)
}

/** How much of a call's arguments an approval card shows before it says how much is left out. */
const PREVIEW_CHARS = 4000

/** A call's arguments as the approval card shows them: indented JSON, cut with a count of what is left out. */
export function mcpArgumentsPreview(input: Record<string, unknown>): string {
  const keys = Object.keys(input)
  if (keys.length === 0) return 'arguments: (none)'
  const json = JSON.stringify(input, null, 2)
  if (json.length <= PREVIEW_CHARS) return `arguments:\n${json}`
  return `arguments:\n${json.slice(0, PREVIEW_CHARS)}\n… ${json.length - PREVIEW_CHARS} more characters`
}

/** Runs one call of a server's tool (the manager's job: connection, result mapping, budget). */
export type McpCall = (
  server: string,
  tool: string,
  input: Record<string, unknown>,
  ctx: ToolCtx,
  signal: AbortSignal,
) => Promise<ToolResult>

/**
 * A server's tool as an engine Tool: the server's input schema, an `mcpCall` action for the one
 * gate (rules `mcp__server`, `mcp__server__tool`, `mcp__*`), read-only (and concurrency-safe) only
 * when the server's `readOnlyHint` says so — which still never skips the gate.
 */
export function createMcpTool(server: string, tool: SdkTool, inputSchema: JsonSchema, call: McpCall): Tool {
  const name = mcpToolName(server, tool.name)
  const readOnly = tool.annotations?.readOnlyHint === true
  const description = (tool.description ?? tool.title ?? tool.annotations?.title ?? '').trim()
  const toolPart = name.slice(`mcp__${server}__`.length)
  return {
    name,
    description: () => `${description === '' ? `The ${tool.name} tool` : description} (MCP server ${server})`,
    inputSchema,
    isReadOnly: () => readOnly,
    isConcurrencySafe: () => readOnly,
    action: () => ({ type: 'mcpCall', server, tool: toolPart, ...(readOnly ? { readOnly: true } : {}) }),
    title: () => `${tool.title ?? tool.name} (${server})`,
    // The card shows what would be sent (issue 34: a write-capable tool must not be approved blind).
    preview: async (input) => ({ type: 'text', text: mcpArgumentsPreview(input) }),
    call: (input, ctx, signal) => call(server, tool.name, input, ctx, signal),
  }
}
