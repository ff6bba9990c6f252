export type { AgentCatalog, AgentInput } from './builtin/agent.js'
export { agentTool, createAgentTool } from './builtin/agent.js'
export type { ApplyAgentChangesInput } from './builtin/apply-agent-changes.js'
export { applyAgentChangesTool } from './builtin/apply-agent-changes.js'
export type { AskUserQuestionInput } from './builtin/ask-user-question.js'
export { askUserQuestionTool } from './builtin/ask-user-question.js'
export type { BashInput } from './builtin/bash.js'
export { bashTool } from './builtin/bash.js'
export type { EditInput } from './builtin/edit.js'
export { editTool } from './builtin/edit.js'
export type { ExitPlanModeInput } from './builtin/exit-plan-mode.js'
export { exitPlanModeTool } from './builtin/exit-plan-mode.js'
export type { GlobInput } from './builtin/glob.js'
export { createGlobTool, globTool, MAX_GLOB_RESULTS } from './builtin/glob.js'
export type { GrepInput } from './builtin/grep.js'
export { createGrepTool, grepTool } from './builtin/grep.js'
export type { JobKillInput } from './builtin/job-kill.js'
export { jobKillTool } from './builtin/job-kill.js'
export type { JobOutputInput } from './builtin/job-output.js'
export { jobOutputTool, MAX_WAIT_MS } from './builtin/job-output.js'
export type { ListMcpResourcesInput } from './builtin/list-mcp-resources.js'
export { listMcpResourcesTool } from './builtin/list-mcp-resources.js'
export type { LspInput, LspOperation } from './builtin/lsp.js'
export { LSP_OPERATIONS, lspTool } from './builtin/lsp.js'
export type { MultiEditInput } from './builtin/multi-edit.js'
export { multiEditTool } from './builtin/multi-edit.js'
export type { NotebookEditInput } from './builtin/notebook-edit.js'
export { notebookEditTool } from './builtin/notebook-edit.js'
export type { ReadInput } from './builtin/read.js'
export { readTool } from './builtin/read.js'
export type { ReadMcpResourceInput } from './builtin/read-mcp-resource.js'
export { readMcpResourceTool } from './builtin/read-mcp-resource.js'
export type { SkillInput } from './builtin/skill.js'
export { skillTool } from './builtin/skill.js'
export type { TodoWriteInput } from './builtin/todo-write.js'
export { todoWriteTool } from './builtin/todo-write.js'
export type { VerifyInput } from './builtin/verify.js'
export { verifyTool } from './builtin/verify.js'
export type { WebFetchInput, WebFetchOptions } from './builtin/web-fetch.js'
export { createWebFetchTool, WEB_FETCH_DEFAULTS, webFetchTool } from './builtin/web-fetch.js'
export type { WebSearchInput } from './builtin/web-search.js'
export { createWebSearchTool } from './builtin/web-search.js'
export type { WriteInput } from './builtin/write.js'
export { writeTool } from './builtin/write.js'
export type {
  ActionCtx,
  BudgetedText,
  FileSnapshot,
  FileTracker,
  OutputBudget,
  PathLocks,
  ShellRunner,
  ToolCtx,
  ToolLimits,
} from './ctx.js'
export { DEFAULT_TOOL_LIMITS, grantOf, sandboxRequestOf } from './ctx.js'
export type { EditSpec } from './edit-apply.js'
export { unifiedDiff } from './edit-file.js'
export { createFileTracker } from './file-tracker.js'
export type { ToolName } from './names.js'
export { isToolName, TOOL_NAMES } from './names.js'
export type { ShapedOutput } from './output-budget.js'
export { budgetOutput, shapeOutput } from './output-budget.js'
export type { OutputKind } from './output-kind.js'
export { createPathLocks } from './path-locks.js'
export type {
  AgentPort,
  AgentRunResult,
  AgentSpawnRequest,
  CheckCommandRunner,
  CheckInfo,
  CheckPort,
  InteractionPort,
  JobPort,
  LspPort,
  McpPort,
  Ports,
  SideModelPort,
  SkillPort,
  UserQuestion,
} from './ports.js'
export { realPathOnDisk } from './real-path.js'
export type { BuiltinToolsOptions } from './registry.js'
export { builtinTools } from './registry.js'
export type { GrepEngine } from './search/grep-search.js'
export { createShellRunner } from './shell-runner.js'
export type { Tool, ToolParts } from './tool.js'
export { actionFor } from './tool-actions.js'
export type { ToolError, ToolOutput, ToolResult } from './tool-result.js'
export type { FetchWebTextFailure, FetchWebTextOptions, FetchWebTextResult } from './web/fetch-web-text.js'
export { fetchWebText } from './web/fetch-web-text.js'
export type { CachedPage } from './web/page-cache.js'
export { PageCache } from './web/page-cache.js'
export type { HostResolver, ResolvedAddress } from './web/resolver.js'
export { systemResolver } from './web/resolver.js'
export type { SearchBackendConfig } from './web/search/create-search-backend.js'
export { createSearchBackend, SEARCH_BACKENDS } from './web/search/create-search-backend.js'
export type { FetchFunction } from './web/search/search-http.js'
export type { WebSearchBackend, WebSearchHit, WebSearchRequest } from './web/search-backend.js'
