/**
 * The Claude Agent SDK's message shapes that `query()` yields, and the `Query` it returns, written
 * from its documented TypeScript reference (the options are in sdk-types.ts).
 */
import type { McpServerConfig, PermissionMode } from './sdk-types.js'

/** Token usage in the Anthropic API's spelling. */
export interface SDKUsage {
  input_tokens: number
  output_tokens: number
  cache_creation_input_tokens: number
  cache_read_input_tokens: number
}

/** Per-model usage and cost in the result message. */
export interface ModelUsage {
  inputTokens: number
  outputTokens: number
  cacheReadInputTokens: number
  cacheCreationInputTokens: number
  webSearchRequests: number
  costUSD: number
  contextWindow: number
}

/** A content block of an assistant message, in the Anthropic API's spelling. */
export type SDKContentBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }

/** A tool result block of a user message. */
export interface SDKToolResultBlock {
  type: 'tool_result'
  tool_use_id: string
  /** Text alone is one string, as Claude Code sends it; blocks when there is an image. */
  content:
    | string
    | Array<
        | { type: 'text'; text: string }
        | {
            type: 'image'
            source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string }
          }
      >
  is_error: boolean
}

/** The first message: the session, its tools, MCP servers, model and mode. */
export interface SDKSystemMessage {
  type: 'system'
  subtype: 'init'
  uuid: string
  session_id: string
  apiKeySource: 'ANTHROPIC_API_KEY' | 'user' | 'none'
  cwd: string
  tools: string[]
  mcp_servers: Array<{ name: string; status: string }>
  model: string
  permissionMode: PermissionMode
  slash_commands: string[]
  output_style: string
  /** The Claude Code version this engine answers for (the one its behaviour is checked against). */
  claude_code_version: string
  agents: string[]
  skills: string[]
  plugins: Array<{ name: string; path: string }>
  /** `/` commands bound to a terminal; none here. */
  terminal_slash_commands?: string[]
  /** Claude Code's control-protocol capabilities; the engine implements none of them. */
  capabilities?: string[]
  fast_mode_state?: 'off'
  fast_mode_disabled_reason?: 'unknown'
  view_mode?: 'default'
}

/** One assistant message of the conversation. */
export interface SDKAssistantMessage {
  type: 'assistant'
  uuid: string
  session_id: string
  parent_tool_use_id: string | null
  message: {
    id: string
    type: 'message'
    role: 'assistant'
    model: string
    content: SDKContentBlock[]
    stop_reason: string | null
    stop_sequence: string | null
    usage: SDKUsage
  }
}

/** A user message: the prompt (replayed) or the tool results the model receives. */
export interface SDKUserMessage {
  type: 'user'
  uuid?: string
  session_id: string
  parent_tool_use_id: string | null
  message: { role: 'user'; content: string | Array<SDKToolResultBlock | { type: 'text'; text: string }> }
}

/** A streaming event of the assistant message being written (`includePartialMessages`). */
export interface SDKPartialAssistantMessage {
  type: 'stream_event'
  uuid: string
  session_id: string
  parent_tool_use_id: string | null
  event:
    | {
        type: 'message_start'
        message: SDKAssistantMessage['message']
      }
    | {
        type: 'message_delta'
        delta: { stop_reason: string | null; stop_sequence: string | null }
        usage: SDKUsage
      }
    | { type: 'message_stop' }
    | {
        type: 'content_block_start'
        index: number
        content_block: { type: 'text'; text: '' } | { type: 'thinking'; thinking: '' }
      }
    | {
        type: 'content_block_delta'
        index: number
        delta: { type: 'text_delta'; text: string } | { type: 'thinking_delta'; thinking: string }
      }
    | { type: 'content_block_stop'; index: number }
}

/** A call that was refused (by a rule, a hook, `canUseTool` or the lack of an approver). */
export interface SDKPermissionDenial {
  tool_name: string
  tool_use_id: string
  tool_input: Record<string, unknown>
}

/** The last message of a turn: its outcome, final text, cost, usage and refused calls. */
export interface SDKResultMessage {
  type: 'result'
  subtype: 'success' | 'error_max_turns' | 'error_during_execution' | 'error_max_budget_usd'
  uuid: string
  session_id: string
  duration_ms: number
  duration_api_ms: number
  is_error: boolean
  num_turns: number
  result: string
  stop_reason: string | null
  total_cost_usd: number
  usage: SDKUsage
  modelUsage: Record<string, ModelUsage>
  permission_denials: SDKPermissionDenial[]
  /** Why the turn failed (error subtypes only). */
  errors?: string[]
  /** Why the loop stopped, in Claude Code's words (`completed`, `max_turns`, `model_error`, …). */
  terminal_reason?: string
  /** The HTTP status of the model error that ended the turn, when there was one. */
  api_error_status?: number | null
  /** From the query's start to the first streamed content (text or thinking). */
  ttft_ms?: number
  /** The same, measured on the stream. */
  ttft_stream_ms?: number
  /** From the query's start to the turn's first step (the engine does not time the request apart). */
  time_to_request_ms?: number
  /** From the query's start to the first content frame. */
  first_content_frame_ms?: number
  /** The engine has no fast mode: always `off`. */
  fast_mode_state?: 'off'
  fast_mode_disabled_reason?: 'unknown'
}

/** Every message `query()` yields. */
export type SDKMessage =
  | SDKSystemMessage
  | SDKAssistantMessage
  | SDKUserMessage
  | SDKPartialAssistantMessage
  | SDKResultMessage

/** A model `supportedModels()` lists. */
export interface ModelInfo {
  value: string
  resolvedModel?: string
  displayName: string
  description: string
}

/** One MCP server's state, as `mcpServerStatus()` reports it. */
export interface McpServerStatus {
  name: string
  status: 'connected' | 'failed' | 'needs-auth' | 'pending' | 'disabled'
  serverInfo?: { name: string; version: string }
  error?: string
}

/**
 * The generator `query()` returns, with the controls a running query has. Every method of the
 * Claude Agent SDK's `Query` is here; those the engine cannot do reject with an error saying so.
 */
export interface Query extends AsyncGenerator<SDKMessage, void> {
  /** Stops the running turn (its result message follows, as an error). */
  interrupt(): Promise<undefined>
  /** Changes the permission mode for the rest of the session. */
  setPermissionMode(mode: PermissionMode): Promise<undefined>
  /** Switches the session's model (an alias such as `opus`, an id, or a reference). */
  setModel(model?: string): Promise<void>
  /** The model aliases the query accepts, with the catalog model each names. */
  supportedModels(): Promise<ModelInfo[]>
  /** The MCP servers and their state. */
  mcpServerStatus(): Promise<McpServerStatus[]>
  /** Adds user messages to a query: each becomes a turn after the ones before it. */
  streamInput(stream: AsyncIterable<SDKUserMessage>): Promise<void>
  /** Ends the query now: the running turn is cancelled and the engine shuts down. */
  close(): void
  setMcpPermissionModeOverride(serverName: string, mode: 'default' | 'auto' | null): Promise<never>
  setMaxThinkingTokens(maxThinkingTokens: number | null, thinkingDisplay?: unknown): Promise<never>
  applyFlagSettings(settings: Record<string, unknown>): Promise<never>
  updateSettings(source: 'localSettings' | 'userSettings', settings: Record<string, unknown>): Promise<never>
  initializationResult(): Promise<never>
  reinitialize(): Promise<never>
  supportedCommands(): Promise<never>
  supportedAgents(): Promise<never>
  getContextUsage(opts?: unknown): Promise<never>
  usage_EXPERIMENTAL_MAY_CHANGE_DO_NOT_RELY_ON_THIS_API_YET(opts?: unknown): Promise<never>
  readFile(path: string, options?: unknown): Promise<never>
  reloadPlugins(options?: unknown): Promise<never>
  reloadSkills(): Promise<never>
  reloadOutputStyles(): Promise<never>
  accountInfo(): Promise<never>
  rewindFiles(userMessageId: string, options?: unknown): Promise<never>
  seedReadState(path: string, mtime: number): Promise<never>
  reconnectMcpServer(serverName: string): Promise<never>
  toggleMcpServer(serverName: string, enabled: boolean): Promise<never>
  readMcpResource(serverName: string, uri: string): Promise<never>
  setMcpServers(servers: Record<string, McpServerConfig>): Promise<never>
  stopTask(taskId: string): Promise<never>
  backgroundTasks(toolUseId?: string): Promise<never>
}
