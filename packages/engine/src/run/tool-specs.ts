import type { ToolSpec } from '@z-engine/protocol'
import type { Tool } from '@z-engine/tools'

/** What the model is told about each tool, in the toolset's (stable) order. */
export function toolSpecsOf(tools: readonly Tool[]): ToolSpec[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description(),
    inputSchema: tool.inputSchema,
  }))
}
