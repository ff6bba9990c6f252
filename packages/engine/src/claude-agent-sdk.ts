/**
 * @z-engine/engine/claude-agent-sdk: the Claude Agent SDK's `query()`, `tool()` and
 * `createSdkMcpServer()` over the engine, in process — a program written for the Claude Agent SDK
 * switches by changing its import.
 */

/** Runs prompts as a Claude Agent SDK query: an async generator of its messages. */
export { query } from './claude-agent-sdk/query.js'
/** The shapes of SDK MCP tools and servers. */
export type {
  CallToolResult,
  McpSdkServerConfigWithInstance,
  SdkMcpToolDefinition,
  ToolAnnotations,
} from './claude-agent-sdk/sdk-mcp-server.js'
/** In-process MCP tools and servers, as the Claude Agent SDK defines them. */
export { createSdkMcpServer, tool } from './claude-agent-sdk/sdk-mcp-server.js'
/** The message shapes `query` yields. */
export type {
  CanUseTool,
  HookCallback,
  HookCallbackMatcher,
  HookEvent,
  HookInput,
  HookJSONOutput,
  McpServerConfig,
  ModelUsage,
  Options,
  PermissionMode,
  PermissionResult,
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
} from './claude-agent-sdk/sdk-types.js'
