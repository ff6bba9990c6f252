import { toolDescription } from '@z-engine/prompts'
import type { Tool } from '@z-engine/tools'

/** LoadMcpTools' input. */
export interface LoadMcpToolsInput {
  names: string[]
}

const NAME = 'LoadMcpTools'

/**
 * LoadMcpTools (offered only while MCP schemas are deferred): adds the named tools' schemas to the
 * tool list from the next request on. It changes nothing in the workspace.
 */
export function createLoadMcpToolsTool(
  load: (names: readonly string[]) => { loaded: string[]; unknown: string[] },
): Tool {
  const tool: Tool<LoadMcpToolsInput> = {
    name: NAME,
    description: () => toolDescription(NAME),
    inputSchema: {
      type: 'object',
      properties: {
        names: {
          type: 'array',
          minItems: 1,
          items: { type: 'string', minLength: 1 },
          description: 'Full tool names (mcp__server__tool) or mcp__server__* for all of one server.',
        },
      },
      required: ['names'],
      additionalProperties: false,
    },
    isReadOnly: () => true,
    isConcurrencySafe: () => false,
    action: () => ({ type: 'other', toolName: NAME, readOnly: true }),
    title: (input) => `Load ${Array.isArray(input.names) ? input.names.join(', ') : 'MCP tools'}`,
    preview: async () => undefined,
    async call(input) {
      const { loaded, unknown } = load(input.names)
      const lines: string[] = []
      if (loaded.length > 0)
        lines.push(
          `Loaded ${loaded.join(', ')}; call ${loaded.length === 1 ? 'it' : 'them'} from your next request on.`,
        )
      if (unknown.length > 0)
        lines.push(`Unknown MCP tools: ${unknown.join(', ')} (see the deferred tools reminder).`)
      if (lines.length === 0) lines.push('Those tools are already loaded.')
      if (loaded.length === 0 && unknown.length > 0)
        return { ok: false, error: { code: 'unknown_tool', message: lines.join('\n') } }
      return { ok: true, output: { content: [{ type: 'text', text: lines.join('\n') }] } }
    },
  }
  return tool as unknown as Tool
}
