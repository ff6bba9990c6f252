import type { Tool } from '@z-engine/tools'
import type { AgentDefinition } from '../workspace/definitions/types.js'

/** Tools a subagent never gets: they talk to the user or act on the caller's behalf (spec 003). */
const NEVER_FOR_SUBAGENTS: ReadonlySet<string> = new Set([
  'AskUserQuestion',
  'ExitPlanMode',
  'ApplyAgentChanges',
])

/**
 * Whether a definition's tool pattern names a tool: exact, or by prefix with a trailing `*`;
 * `mcp__<server>` (no tool part) names every tool of that MCP server, as in permission rules.
 * `Bash(git add *)` names Bash (its calls still go through the permission rules).
 */
export function toolPatternMatches(pattern: string, toolName: string): boolean {
  const whole = pattern.trim()
  const open = whole.indexOf('(')
  const trimmed = open > 0 && whole.endsWith(')') ? whole.slice(0, open).trim() : whole
  if (trimmed.endsWith('*')) return toolName.startsWith(trimmed.slice(0, -1))
  if (trimmed.startsWith('mcp__') && trimmed.length > 5 && !trimmed.slice(5).includes('__'))
    return toolName === trimmed || toolName.startsWith(`${trimmed}__`)
  return trimmed === toolName
}

/**
 * The tools a subagent of `definition` is offered, in the caller's (cache-stable) order: the
 * definition's allow list and deny list applied, the user-facing tools removed, and Agent removed
 * once the child's depth reaches `maxDepth`.
 */
export function subagentTools(
  tools: readonly Tool[],
  definition: Pick<AgentDefinition, 'tools' | 'disallowedTools'>,
  depth: number,
  maxDepth: number,
): Tool[] {
  const allowed = definition.tools
  const denied = definition.disallowedTools ?? []
  return tools.filter((tool) => {
    if (NEVER_FOR_SUBAGENTS.has(tool.name)) return false
    if (tool.name === 'Agent' && depth >= maxDepth) return false
    if (allowed !== undefined && !allowed.some((pattern) => toolPatternMatches(pattern, tool.name)))
      return false
    return !denied.some((pattern) => toolPatternMatches(pattern, tool.name))
  })
}
