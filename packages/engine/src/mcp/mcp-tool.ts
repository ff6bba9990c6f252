import type { Tool as SdkTool } from '@modelcontextprotocol/client'
import type { JsonSchema } from '@z-engine/protocol'
import type { Tool, ToolCtx, ToolResult } from '@z-engine/tools'

/** Tool names providers accept (OpenAI's limit is the tightest: 64 characters). */
const MAX_TOOL_NAME = 64

/** The model-facing name of a server's tool: `mcp__<server>__<tool>`, other characters as `_`. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, MAX_TOOL_NAME)
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
    preview: async () => undefined,
    call: (input, ctx, signal) => call(server, tool.name, input, ctx, signal),
  }
}
