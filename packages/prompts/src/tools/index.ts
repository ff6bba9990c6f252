import Agent from './Agent.md'
import ApplyAgentChanges from './ApplyAgentChanges.md'
import AskUserQuestion from './AskUserQuestion.md'
import Bash from './Bash.md'
import Edit from './Edit.md'
import ExitPlanMode from './ExitPlanMode.md'
import Glob from './Glob.md'
import Grep from './Grep.md'
import JobKill from './JobKill.md'
import JobOutput from './JobOutput.md'
import ListMcpResources from './ListMcpResources.md'
import LoadMcpTools from './LoadMcpTools.md'
import LSP from './LSP.md'
import MultiEdit from './MultiEdit.md'
import NotebookEdit from './NotebookEdit.md'
import Read from './Read.md'
import ReadMcpResource from './ReadMcpResource.md'
import Skill from './Skill.md'
import TodoWrite from './TodoWrite.md'
import Verify from './Verify.md'
import WebFetch from './WebFetch.md'
import WebSearch from './WebSearch.md'
import Write from './Write.md'

/**
 * Tool descriptions, one markdown file per tool (`<ToolName>.md`), keyed by tool name. Add a line
 * to `TOOL_DESCRIPTIONS` when you add a tool.
 */
export const TOOL_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Read,
  Write,
  Edit,
  MultiEdit,
  NotebookEdit,
  Glob,
  Grep,
  Bash,
  JobOutput,
  JobKill,
  Agent,
  ApplyAgentChanges,
  AskUserQuestion,
  ExitPlanMode,
  LSP,
  ListMcpResources,
  LoadMcpTools,
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
