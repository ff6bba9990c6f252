/**
 * Tool descriptions, one markdown file per tool (`<ToolName>.md`), keyed by tool name. Add a line
 * to `TOOL_DESCRIPTIONS` when you add a tool.
 */
export const TOOL_DESCRIPTIONS: Readonly<Record<string, string>> = {}

/** The description of a built-in tool; throws for an unknown name (a programming error). */
export function toolDescription(name: string): string {
  const description = TOOL_DESCRIPTIONS[name]
  if (description === undefined) throw new Error(`No description for tool '${name}' in @z-engine/prompts`)
  return description.trim()
}
