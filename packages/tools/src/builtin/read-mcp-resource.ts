import { toolDescription } from '@z-engine/prompts'
import { budgetPortResult, guardPort, portMissing } from '../port-results.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'

/** ReadMcpResource's input. */
export interface ReadMcpResourceInput {
  server: string
  uri: string
}

const NAME = 'ReadMcpResource'

/** ReadMcpResource: reads one MCP resource through the McpPort. */
export const readMcpResourceTool: Tool<ReadMcpResourceInput> = {
  name: NAME,
  description: () => toolDescription(NAME),
  inputSchema: {
    type: 'object',
    properties: {
      server: { type: 'string', minLength: 1, description: 'The MCP server’s name.' },
      uri: { type: 'string', minLength: 1, description: 'The resource URI, as ListMcpResources gives it.' },
    },
    required: ['server', 'uri'],
    additionalProperties: false,
  },
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  action: (input, ctx) => actionFor(NAME, input, ctx),
  title: (input) => `Read MCP resource ${String(input.uri)} from ${String(input.server)}`,
  preview: async () => undefined,
  async call(input, ctx, signal) {
    const mcp = ctx.ports.mcp
    if (mcp === undefined) return portMissing(NAME, 'MCP server')
    return guardPort(NAME, async () =>
      budgetPortResult(ctx, await mcp.readResource(input.server, input.uri, signal), 'file', 'mcp-resource'),
    )
  },
}
