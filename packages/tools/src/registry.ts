import { createAgentTool } from './builtin/agent.js'
import { applyAgentChangesTool } from './builtin/apply-agent-changes.js'
import { askUserQuestionTool } from './builtin/ask-user-question.js'
import { bashTool } from './builtin/bash.js'
import { editTool } from './builtin/edit.js'
import { exitPlanModeTool } from './builtin/exit-plan-mode.js'
import { createGlobTool } from './builtin/glob.js'
import { createGrepTool } from './builtin/grep.js'
import { jobKillTool } from './builtin/job-kill.js'
import { jobOutputTool } from './builtin/job-output.js'
import { listMcpResourcesTool } from './builtin/list-mcp-resources.js'
import { lspTool } from './builtin/lsp.js'
import { multiEditTool } from './builtin/multi-edit.js'
import { notebookEditTool } from './builtin/notebook-edit.js'
import { readTool } from './builtin/read.js'
import { readMcpResourceTool } from './builtin/read-mcp-resource.js'
import { skillTool } from './builtin/skill.js'
import { todoWriteTool } from './builtin/todo-write.js'
import { verifyTool } from './builtin/verify.js'
import { createWebFetchTool, type WebFetchOptions } from './builtin/web-fetch.js'
import { createWebSearchTool } from './builtin/web-search.js'
import { writeTool } from './builtin/write.js'
import { TOOL_NAMES, type ToolName } from './names.js'
import type { Ports } from './ports.js'
import type { GrepEngine } from './search/grep-search.js'
import type { Tool } from './tool.js'
import type { WebSearchBackend } from './web/search-backend.js'

/** What the built-in toolset is made from. */
export interface BuiltinToolsOptions {
  /** Engine services; a missing port leaves its tools out. */
  ports: Ports
  /** The configured search backend; without one WebSearch is left out (never stubbed). */
  webSearch?: WebSearchBackend
  /** WebFetch settings (`web.allowed_private_hosts`, limits); `false` leaves WebFetch out. */
  webFetch?: WebFetchOptions | false
  /** Grep and Glob engine: `auto` (ripgrep when on PATH), `ripgrep` or `builtin`. */
  searchEngine?: GrepEngine
}

/**
 * Tools are typed by their input; the registry hands them out by name with the input erased
 * (the engine validates input against `inputSchema` before `call`).
 */
function erase<Input>(tool: Tool<Input>): Tool {
  return tool as unknown as Tool
}

/** One factory per name; `undefined` means the service behind the tool is off. */
const FACTORIES: Record<ToolName, (options: BuiltinToolsOptions) => Tool | undefined> = {
  Read: () => erase(readTool),
  Write: () => erase(writeTool),
  Edit: () => erase(editTool),
  MultiEdit: () => erase(multiEditTool),
  NotebookEdit: () => erase(notebookEditTool),
  Glob: (options) => erase(createGlobTool(options.searchEngine)),
  Grep: (options) => erase(createGrepTool(options.searchEngine)),
  Bash: () => erase(bashTool),
  JobOutput: ({ ports }) => (ports.jobs ? erase(jobOutputTool) : undefined),
  JobKill: ({ ports }) => (ports.jobs ? erase(jobKillTool) : undefined),
  WebFetch: (options) =>
    options.webFetch === false ? undefined : erase(createWebFetchTool(options.webFetch ?? {})),
  WebSearch: (options) => (options.webSearch ? erase(createWebSearchTool(options.webSearch)) : undefined),
  TodoWrite: ({ ports }) => (ports.interaction ? erase(todoWriteTool) : undefined),
  AskUserQuestion: ({ ports }) => (ports.interaction ? erase(askUserQuestionTool) : undefined),
  ExitPlanMode: ({ ports }) => (ports.interaction ? erase(exitPlanModeTool) : undefined),
  Skill: ({ ports }) => (ports.skills ? erase(skillTool) : undefined),
  Agent: ({ ports }) => {
    const agents = ports.agents
    return agents ? erase(createAgentTool(() => agents.catalog())) : undefined
  },
  ApplyAgentChanges: ({ ports }) => (ports.agents ? erase(applyAgentChangesTool) : undefined),
  Verify: ({ ports }) => (ports.checks ? erase(verifyTool) : undefined),
  LSP: ({ ports }) => (ports.lsp ? erase(lspTool) : undefined),
  ListMcpResources: ({ ports }) => (ports.mcp ? erase(listMcpResourcesTool) : undefined),
  ReadMcpResource: ({ ports }) => (ports.mcp ? erase(readMcpResourceTool) : undefined),
}

/**
 * The built-in tools in the stable registry order (`TOOL_NAMES`; the prompt cache depends on it),
 * leaving out tools whose port or service is absent.
 */
export function builtinTools(options: BuiltinToolsOptions): Tool[] {
  const tools: Tool[] = []
  for (const name of TOOL_NAMES) {
    const tool = FACTORIES[name](options)
    if (tool) tools.push(tool)
  }
  return tools
}
