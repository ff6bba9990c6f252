import { toolDescription } from '@z-engine/prompts'
import { budgetPortResult, guardPort, portMissing } from '../port-results.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'

/** ListMcpResources' input: one server, or every server when omitted. */
export interface ListMcpResourcesInput {
  server?: string
}

const NAME = 'ListMcpResources'

/** ListMcpResources: lists the resources MCP servers offer, through the McpPort. */
export const listMcpResourcesTool: Tool<ListMcpResourcesInput> = {
  name: NAME,
  description: () => toolDescription(NAME),
  inputSchema: {
    type: 'object',
    properties: {
      server: {
        type: 'string',
        minLength: 1,
        description: 'Only this server’s resources; all servers when omitted.',
      },
    },
    additionalProperties: false,
  },
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  action: (input, ctx) => actionFor(NAME, input, ctx),
  title: (input) =>
    typeof input.server === 'string' ? `List MCP resources of ${input.server}` : 'List MCP resources',
  preview: async () => undefined,
  async call(input, ctx, signal) {
    const mcp = ctx.ports.mcp
    if (mcp === undefined) return portMissing(NAME, 'MCP server')
    const server = input.server?.trim() || undefined
    return guardPort(NAME, async () =>
      budgetPortResult(ctx, await mcp.listResources(server, signal), 'search', 'mcp-resources'),
    )
  },
}
