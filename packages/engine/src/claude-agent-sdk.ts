/**
 * @z-engine/engine/claude-agent-sdk: the Claude Agent SDK's `query()`, `tool()` and
 * `createSdkMcpServer()` over the engine, in process — a program written for the Claude Agent SDK
 * switches by changing its import.
 */

/** Runs prompts as a Claude Agent SDK query: an async generator of its messages. */
export { query } from './claude-agent-sdk/query.js'
/** Thrown from a query's iteration when its abortController aborted it. */
export { AbortError } from './claude-agent-sdk/query-controls.js'
/** The Claude Code release whose Agent SDK (0.3.337) this entry is checked against. */
export { CLAUDE_CODE_VERSION } from './claude-agent-sdk/sdk-init.js'
/** The shapes of SDK MCP tools and servers. */
export type {
  CallToolResult,
  McpSdkServerConfigWithInstance,
  SdkMcpToolDefinition,
  ToolAnnotations,
} from './claude-agent-sdk/sdk-mcp-server.js'
/** In-process MCP tools and servers, as the Claude Agent SDK defines them. */
export { createSdkMcpServer, tool } from './claude-agent-sdk/sdk-mcp-server.js'
export type {
  McpServerStatus,
  ModelInfo,
  ModelUsage,
  Query,
  SDKAssistantMessage,
  SDKContentBlock,
  SDKMessage,
  SDKPartialAssistantMessage,
  SDKPermissionDenial,
  SDKResultMessage,
  SDKSystemMessage,
  SDKToolResultBlock,
  SDKUsage,
  SDKUserMessage,
} from './claude-agent-sdk/sdk-message-types.js'
/** The message shapes `query` yields. */
export type {
  AgentDefinition,
  CanUseTool,
  CanUseToolOptions,
  HookCallback,
  HookCallbackMatcher,
  HookEvent,
  HookInput,
  HookJSONOutput,
  McpServerConfig,
  Options,
  PermissionMode,
  PermissionResult,
  PermissionRuleValue,
  PermissionUpdate,
  PermissionUpdateDestination,
} from './claude-agent-sdk/sdk-types.js'
/** Every hook event Claude Code has. */
export { SDK_HOOK_EVENTS as HOOK_EVENTS } from './claude-agent-sdk/sdk-types.js'
/** Stored sessions as the session helpers describe them. */
export type {
  GetSessionInfoOptions,
  ListSessionsOptions,
  SDKSessionInfo,
} from './claude-agent-sdk/session-helpers.js'
/** The session helpers: listSessions and getSessionInfo read the engine's store; the others reject with what to do instead. */
export {
  archiveSession,
  deleteSession,
  forkSession,
  getSessionInfo,
  getSessionMessages,
  getSubagentMessages,
  listSessions,
  listSubagents,
  renameSession,
  tagSession,
  unarchiveSession,
} from './claude-agent-sdk/session-helpers.js'
