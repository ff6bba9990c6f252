export type { AgentCatalog, AgentInput } from './builtin/agent.js'
export { agentTool, createAgentTool } from './builtin/agent.js'
export type { ApplyAgentChangesInput } from './builtin/apply-agent-changes.js'
export { applyAgentChangesTool } from './builtin/apply-agent-changes.js'
export type { AskUserQuestionInput } from './builtin/ask-user-question.js'
export { askUserQuestionTool } from './builtin/ask-user-question.js'
export type { ExitPlanModeInput } from './builtin/exit-plan-mode.js'
export { exitPlanModeTool } from './builtin/exit-plan-mode.js'
export type { ListMcpResourcesInput } from './builtin/list-mcp-resources.js'
export { listMcpResourcesTool } from './builtin/list-mcp-resources.js'
export type { LspInput, LspOperation } from './builtin/lsp.js'
export { LSP_OPERATIONS, lspTool } from './builtin/lsp.js'
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
export type { FileTracker, PathLocks, ToolCtx, ToolLimits } from './ctx.js'
export { DEFAULT_TOOL_LIMITS } from './ctx.js'
export type {
  AgentPort,
  AgentRunResult,
  AgentSpawnRequest,
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
export type { ActionCtx, Tool, ToolError, ToolOutput, ToolResult } from './tool.js'
export { actionFor } from './tool-actions.js'
export type { ConvertedPage } from './web/html-to-markdown.js'
export { htmlToMarkdown } from './web/html-to-markdown.js'
export type { CachedPage } from './web/page-cache.js'
export { PageCache } from './web/page-cache.js'
export type { HostResolver, ResolvedAddress } from './web/resolver.js'
export { systemResolver } from './web/resolver.js'
export type { SearchBackendConfig } from './web/search/create-search-backend.js'
export { createSearchBackend, SEARCH_BACKENDS } from './web/search/create-search-backend.js'
export type { FetchFunction } from './web/search/search-http.js'
export type { WebSearchBackend, WebSearchHit, WebSearchRequest } from './web/search-backend.js'
