/**
 * The built-in tool names, in the stable registry order. The order is part of the prompt cache key
 * (the tool list sits in the cached prefix), so new tools go at the end.
 */
export const TOOL_NAMES = [
  'Read',
  'Write',
  'Edit',
  'MultiEdit',
  'NotebookEdit',
  'Glob',
  'Grep',
  'Bash',
  'JobOutput',
  'JobKill',
  'WebFetch',
  'WebSearch',
  'TodoWrite',
  'AskUserQuestion',
  'ExitPlanMode',
  'Skill',
  'Agent',
  'ApplyAgentChanges',
  'Verify',
  'LSP',
  'ListMcpResources',
  'ReadMcpResource',
] as const

/** The name of a built-in tool. */
export type ToolName = (typeof TOOL_NAMES)[number]

/** Whether `name` is a built-in tool's name. */
export function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(name)
}
