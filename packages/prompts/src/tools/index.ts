import Agent from './Agent.md'
import ApplyAgentChanges from './ApplyAgentChanges.md'
import AskUserQuestion from './AskUserQuestion.md'
import ExitPlanMode from './ExitPlanMode.md'
import ListMcpResources from './ListMcpResources.md'
import LSP from './LSP.md'
import ReadMcpResource from './ReadMcpResource.md'
import Skill from './Skill.md'
import TodoWrite from './TodoWrite.md'
import Verify from './Verify.md'
import WebFetch from './WebFetch.md'
import WebSearch from './WebSearch.md'
/**
 * Tool descriptions, one markdown file per tool (`<ToolName>.md`), keyed by tool name. Add a line
 * to `TOOL_DESCRIPTIONS` when you add a tool.
 */
export const TOOL_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Agent,
  ApplyAgentChanges,
  AskUserQuestion,
  ExitPlanMode,
  LSP,
  ListMcpResources,
  ReadMcpResource,
  Skill,
  TodoWrite,
  Verify,
  WebFetch,
  WebSearch,
}

/** The description of a built-in tool; throws for an unknown name (a programming error). */
export function toolDescription(name: string): string {
  const description = TOOL_DESCRIPTIONS[name]
  if (description === undefined) throw new Error(`No description for tool '${name}' in @z-engine/prompts`)
  return description.trim()
}
