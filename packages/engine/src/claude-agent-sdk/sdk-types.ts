/**
 * The Claude Agent SDK's option shapes that `query()` accepts (its messages: sdk-message-types.ts), written from
 * its documented TypeScript reference so a program written for it type-checks against this subpath.
 */
import { HOOK_EVENTS } from '@z-engine/protocol'
import type { SdkMcpServer } from './sdk-mcp-server.js'

/**
 * Permission modes as the Claude Agent SDK spells them. `dontAsk` denies what would ask (without
 * calling `canUseTool`); `auto` runs as `acceptEdits` (the engine has no action classifier).
 */
export type PermissionMode = 'default' | 'acceptEdits' | 'bypassPermissions' | 'plan' | 'dontAsk' | 'auto'

/** Every hook event Claude Code has (see `SDK_HOOK_EVENTS` for which fire here). */
export type HookEvent = (typeof SDK_HOOK_EVENTS)[number]

/**
 * Claude Code's hook events, as the Claude Agent SDK lists them (`HOOK_EVENTS`): the engine's table
 * (which has each of them but the SDK's `Interrupt`) plus `Interrupt`.
 */
export const SDK_HOOK_EVENTS = [...HOOK_EVENTS, 'Interrupt'] as const

/** What a hook callback receives: snake_case fields, as Claude Code passes them. */
export interface HookInput {
  hook_event_name: HookEvent
  session_id: string
  transcript_path: string
  cwd: string
  tool_name?: string
  tool_input?: unknown
  tool_response?: unknown
  /** The model's id of the call (PreToolUse, PostToolUse, PostToolUseFailure). */
  tool_use_id?: string
  /** PostToolUseFailure: what went wrong. */
  error?: string
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
    /** WorktreeCreate: the worktree the hook made (a worktree of the project on its own branch). */
    worktreePath?: string
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

/** Where a permission update is kept, as the Claude Agent SDK names it. */
export type PermissionUpdateDestination =
  | 'userSettings'
  | 'projectSettings'
  | 'localSettings'
  | 'session'
  | 'cliArg'

/** A tool (and optional rule content) a permission rule names. */
export interface PermissionRuleValue {
  toolName: string
  ruleContent?: string
}

/** A change to the permission rules or mode (`suggestions`, `updatedPermissions`). */
export type PermissionUpdate =
  | {
      type: 'addRules' | 'replaceRules' | 'removeRules'
      rules: PermissionRuleValue[]
      behavior: 'allow' | 'deny' | 'ask'
      destination: PermissionUpdateDestination
    }
  | { type: 'setMode'; mode: PermissionMode; destination: PermissionUpdateDestination }
  | {
      type: 'addDirectories' | 'removeDirectories'
      directories: string[]
      destination: PermissionUpdateDestination
    }

/** What `canUseTool` answers. */
export type PermissionResult =
  | {
      behavior: 'allow'
      updatedInput?: Record<string, unknown>
      updatedPermissions?: PermissionUpdate[]
      toolUseID?: string
    }
  | { behavior: 'deny'; message: string; interrupt?: boolean; toolUseID?: string }

/** What `canUseTool` is told besides the tool and its input. */
export interface CanUseToolOptions {
  signal: AbortSignal
  /** Rules that would allow calls like this one (never empty). */
  suggestions?: PermissionUpdate[]
  /** The file path that made the call ask, for reads and writes. */
  blockedPath?: string
  /** Why the call needs permission. */
  decisionReason?: string
  /** A short label such as `Edit src/main.ts`. */
  title?: string
  toolUseID: string
  /** The subagent making the call; absent for the main agent. */
  agentID?: string
  requestId?: string
}

/** The permission callback, called for a call that would otherwise ask. */
export type CanUseTool = (
  toolName: string,
  input: Record<string, unknown>,
  options: CanUseToolOptions,
) => Promise<PermissionResult>

/** An MCP server: a command (stdio), a URL (`http`, `sse`), or an in-process SDK server. */
export type McpServerConfig =
  | { type?: 'stdio'; command: string; args?: string[]; env?: Record<string, string> }
  | { type: 'http'; url: string; headers?: Record<string, string> }
  | { type: 'sse'; url: string; headers?: Record<string, string> }
  | { type: 'sdk'; name: string; instance: SdkMcpServer | { connect(transport: unknown): Promise<void> } }

/**
 * An agent's own MCP server: the name of one configured for the query, or inline ones by name (an
 * in-process `sdk` one is refused: it belongs in `options.mcpServers`).
 */
export type AgentMcpServerSpec =
  | string
  | Record<string, McpServerConfig | { type: 'sdk'; name: string; timeout?: number }>

/**
 * A subagent defined in code (`options.agents`), as Claude Code's agent files define one; the model
 * delegates to it with the Agent (`Task`) tool's `subagent_type`. The fields after `permissionMode`
 * are the Claude Agent SDK's that the engine cannot honour: a query given one is refused, naming it
 * (see sdk-agents.ts).
 */
export interface AgentDefinition {
  description: string
  /** The agent's system prompt. */
  prompt: string
  /** Allowed tools (Claude Code's names, `Task` included); absent inherits every tool. */
  tools?: string[]
  disallowedTools?: string[]
  /** `inherit`, an alias (`sonnet`, `opus`, `haiku`) or a model id. */
  model?: string
  mcpServers?: AgentMcpServerSpec[]
  maxTurns?: number
  permissionMode?: PermissionMode
  criticalSystemReminder_EXPERIMENTAL?: string
  skills?: string[]
  initialPrompt?: string
  autoCompactWindow?: number
  background?: boolean
  omitClaudeMd?: boolean
  memory?: 'user' | 'project' | 'local'
  effort?: ('low' | 'medium' | 'high' | 'xhigh' | 'max') | number
  observer?: string
  observerMessage?: string
}

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
  /** Subagents by name, offered to the model through the Agent (`Task`) tool. */
  agents?: Record<string, AgentDefinition>
  // Accepted and not honoured: each one given is refused by name (see sdk-option-support.ts).
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
  /** The session's title. */
  title?: string
  // The rest of the Claude Agent SDK's options, so its programs type-check: quiet when they only steer
  // its child process or equal its default, else refused by name (see sdk-option-support.ts).
  spawnClaudeCodeProcess?: unknown
  debug?: boolean
  debugFile?: string
  loadTimeoutMs?: number
  mcpServersDelivery?: unknown
  pluginDelivery?: unknown
  agent?: string
  projectConfigRoot?: string
  toolAliases?: unknown
  toolConfig?: unknown
  onElicitation?: unknown
  onUserDialog?: unknown
  supportedDialogKinds?: unknown
  perTaskStopAffordance?: unknown
  persistSession?: boolean
  sessionStore?: unknown
  sessionStoreFlush?: unknown
  includeHookEvents?: boolean
  forwardSubagentText?: boolean
  verbatimPrompts?: boolean
  thinking?: unknown
  effort?: unknown
  taskBudget?: unknown
  planModeInstructions?: unknown
  permissionPrompts?: unknown
  promptSuggestions?: boolean
  agentProgressSummaries?: boolean
  sessionId?: string
  resumeDropsTurn?: unknown
  settings?: unknown
  managedSettings?: unknown
  skills?: unknown
}
