import type { Settings } from '@z-engine/protocol'
import {
  applyAgentChangesTool,
  askUserQuestionTool,
  bashTool,
  createWebFetchTool,
  editTool,
  exitPlanModeTool,
  globTool,
  grepTool,
  jobKillTool,
  jobOutputTool,
  listMcpResourcesTool,
  lspTool,
  multiEditTool,
  notebookEditTool,
  type Ports,
  readMcpResourceTool,
  readTool,
  skillTool,
  TOOL_NAMES,
  type Tool,
  todoWriteTool,
  verifyTool,
  writeTool,
} from '@z-engine/tools'

/**
 * Erases a tool's input type: the batch validates every input against the tool's schema before
 * `call`, so the engine handles all tools as taking a JSON object.
 */
function erased<Input>(tool: Tool<Input>): Tool {
  return tool as unknown as Tool
}

/** What decides the main agent's toolset. */
export interface ToolsetOptions {
  settings: Settings
  ports: Ports
}

/**
 * The main agent's tools in the stable registry order (the prompt cache depends on it). Tools whose
 * service is off are left out, never stubbed: no WebSearch without a backend, no Agent without
 * subagents, no MCP resource tools without MCP servers, no LSP without language servers.
 */
export function buildToolset(options: ToolsetOptions): Tool[] {
  const { settings, ports } = options
  const available: Partial<Record<(typeof TOOL_NAMES)[number], Tool>> = {
    Read: readTool,
    Write: writeTool,
    Edit: editTool,
    MultiEdit: multiEditTool,
    NotebookEdit: notebookEditTool,
    Glob: globTool,
    Grep: grepTool,
    Bash: bashTool,
    ...(ports.jobs ? { JobOutput: jobOutputTool, JobKill: jobKillTool } : {}),
    WebFetch: erased(createWebFetchTool({ allowedPrivateHosts: settings.web.allowed_private_hosts })),
    TodoWrite: erased(todoWriteTool),
    AskUserQuestion: erased(askUserQuestionTool),
    ExitPlanMode: erased(exitPlanModeTool),
    ...(ports.skills ? { Skill: erased(skillTool) } : {}),
    ...(ports.agents ? { ApplyAgentChanges: erased(applyAgentChangesTool) } : {}),
    ...(ports.checks ? { Verify: erased(verifyTool) } : {}),
    ...(ports.lsp ? { LSP: erased(lspTool) } : {}),
    ...(ports.mcp
      ? { ListMcpResources: erased(listMcpResourcesTool), ReadMcpResource: erased(readMcpResourceTool) }
      : {}),
  }
  return TOOL_NAMES.flatMap((name) => {
    const tool = available[name]
    return tool ? [tool] : []
  })
}
