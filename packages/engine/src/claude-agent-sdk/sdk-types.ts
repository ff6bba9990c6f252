/**
 * The Claude Agent SDK's option and message shapes that `query()` accepts and yields, written from
 * its documented TypeScript reference so a program written for it type-checks against this subpath.
 */
import type { SdkMcpServer } from './sdk-mcp-server.js'

/** Permission modes as the Claude Agent SDK spells them. */
export type PermissionMode = 'default' | 'acceptEdits' | 'bypassPermissions' | 'plan'

/** The hook events the engine runs (a subset of the Claude Agent SDK's; others are refused). */
export type HookEvent =
  | 'PreToolUse'
  | 'PostToolUse'
  | 'UserPromptSubmit'
  | 'SessionStart'
  | 'SessionEnd'
  | 'Stop'
  | 'SubagentStart'
  | 'SubagentStop'
  | 'PreCompact'
  | 'Notification'

/** What a hook callback receives: snake_case fields, as Claude Code passes them. */
export interface HookInput {
  hook_event_name: HookEvent
  session_id: string
  transcript_path: string
  cwd: string
  tool_name?: string
  tool_input?: unknown
  tool_response?: unknown
  prompt?: string
  source?: string
  reason?: string
  stop_hook_active?: boolean
  trigger?: string
  custom_instructions?: string
  message?: string
  [key: string]: unknown
}

/** What a hook callback returns (Claude Code's hook JSON output). */
export interface HookJSONOutput {
  continue?: boolean
  suppressOutput?: boolean
  stopReason?: string
  decision?: 'approve' | 'block'
  systemMessage?: string
  reason?: string
  hookSpecificOutput?: {
    hookEventName?: HookEvent
    permissionDecision?: 'allow' | 'deny' | 'ask'
    permissionDecisionReason?: string
    updatedInput?: Record<string, unknown>
    additionalContext?: string
  }
}

/** A hook function: its input, the tool use id (when there is one) and an abort signal. */
export type HookCallback = (
  input: HookInput,
  toolUseID: string | undefined,
  options: { signal: AbortSignal },
) => Promise<HookJSONOutput>

/** Hooks for the tools (or triggers) a matcher names; `timeout` in seconds. */
export interface HookCallbackMatcher {
  matcher?: string
  hooks: HookCallback[]
  timeout?: number
}

/** What `canUseTool` answers. */
export type PermissionResult =
  | { behavior: 'allow'; updatedInput?: Record<string, unknown>; updatedPermissions?: unknown[] }
  | { behavior: 'deny'; message: string; interrupt?: boolean }

/** The permission callback, called for a call that would otherwise ask. */
export type CanUseTool = (
  toolName: string,
  input: Record<string, unknown>,
  options: { signal: AbortSignal; suggestions?: unknown[]; toolUseID: string },
) => Promise<PermissionResult>

/** An MCP server: a command (stdio), a URL (`http`, `sse`), or an in-process SDK server. */
export type McpServerConfig =
  | { type?: 'stdio'; command: string; args?: string[]; env?: Record<string, string> }
  | { type: 'http'; url: string; headers?: Record<string, string> }
  | { type: 'sse'; url: string; headers?: Record<string, string> }
  | { type: 'sdk'; name: string; instance: SdkMcpServer | { connect(transport: unknown): Promise<void> } }

/** The options `query()` takes. */
export interface Options {
  abortController?: AbortController
  additionalDirectories?: string[]
  allowedTools?: string[]
  canUseTool?: CanUseTool
  /** Continue the project's most recent session (a new one when it has none). */
  continue?: boolean
  cwd?: string
  disallowedTools?: string[]
  env?: Record<string, string | undefined>
  forkSession?: boolean
  hooks?: Partial<Record<HookEvent, HookCallbackMatcher[]>>
  includePartialMessages?: boolean
  /** Turns extended thinking on with this budget (at least 1,024 tokens); 0 turns it off. */
  maxThinkingTokens?: number
  maxTurns?: number
  mcpServers?: Record<string, McpServerConfig>
  model?: string
  permissionMode?: PermissionMode
  resume?: string
  /** `user`, `project`, `local`: without `user`, no user settings or data folder are read (the SDK's default reads none). */
  settingSources?: Array<'user' | 'project' | 'local'>
  /** Receives the warnings about options that change nothing here (else they are process warnings). */
  stderr?: (data: string) => void
  systemPrompt?: string | { type: 'preset'; preset: 'claude_code'; append?: string }
  // Accepted so a Claude Agent SDK program type-checks unchanged; they steer its Claude Code child
  // process, which does not exist here.
  executable?: 'node' | 'bun' | 'deno'
  executableArgs?: string[]
  extraArgs?: Record<string, string | null>
  pathToClaudeCodeExecutable?: string
  allowDangerouslySkipPermissions?: boolean
  // Accepted and not honoured: each one given is reported once per query (see sdk-option-support.ts).
  agents?: Record<string, { description: string; prompt: string; tools?: string[]; model?: string }>
  betas?: string[]
  enableFileCheckpointing?: boolean
  fallbackModel?: string
  maxBudgetUsd?: number
  outputFormat?: { type: 'json_schema'; schema: Record<string, unknown> }
  permissionPromptToolName?: string
  plugins?: Array<{ type: 'local'; path: string }>
  resumeSessionAt?: string
  sandbox?: Record<string, unknown>
  strictMcpConfig?: boolean
  tools?: string[] | { type: 'preset'; preset: 'claude_code' }
}

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
  content: Array<
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
  apiKeySource: 'user' | 'none'
  cwd: string
  tools: string[]
  mcp_servers: Array<{ name: string; status: string }>
  model: string
  permissionMode: PermissionMode
  slash_commands: string[]
  output_style: string
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
}

/** Every message `query()` yields. */
export type SDKMessage =
  | SDKSystemMessage
  | SDKAssistantMessage
  | SDKUserMessage
  | SDKPartialAssistantMessage
  | SDKResultMessage

/** The generator `query()` returns, with the controls a running query has. */
export interface Query extends AsyncGenerator<SDKMessage, void> {
  /** Stops the running turn (its result message follows, as an error). */
  interrupt(): Promise<void>
  /** Changes the permission mode for the rest of the session. */
  setPermissionMode(mode: PermissionMode): Promise<void>
}
