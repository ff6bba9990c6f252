import { DEFAULT_HOOK_TIMEOUT_SECS, HOOK_EVENTS, USER_PROMPT_HOOK_TIMEOUT_SECS } from '@z-engine/protocol'

/** The events a command hook can subscribe to (spec 000 "Hooks"), in Claude Code's spelling. */
export type HookEvent = (typeof HOOK_EVENTS)[number]

export { DEFAULT_HOOK_TIMEOUT_SECS, HOOK_EVENTS, USER_PROMPT_HOOK_TIMEOUT_SECS }

/** Seconds a hook of `event` may run when it sets no timeout (Claude Code: 600, UserPromptSubmit 30). */
export function defaultHookTimeoutSecs(event: HookEvent): number {
  return event === 'UserPromptSubmit' ? USER_PROMPT_HOOK_TIMEOUT_SECS : DEFAULT_HOOK_TIMEOUT_SECS
}

/** Events whose hooks see a tool call: the only ones where a hook's `if` condition applies. */
export const TOOL_HOOK_EVENTS: ReadonlySet<HookEvent> = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
])

/** One configured command hook (`[[hooks.<Event>]]` in settings, or a `.claude/settings.json` entry). */
export interface HookCommand {
  /**
   * Matched against the event's field in HOOK_EVENT_TABLE (the tool name, agent type, trigger,
   * source…) as Claude Code does: empty, absent or `*` matches everything; names (letters, digits,
   * `_`, joined by `|`; on most events also `-`, spaces and `,` lists) match exactly; anything else
   * is a regular expression searched in the value. Events with no such field ignore it.
   */
  matcher?: string
  /** Tool events: a permission rule (`Bash(git *)`) the call must match, else the hook does not run. */
  if?: string
  /** A shell command line, run with `/bin/sh -c` in the project root. */
  command: string
  /** Seconds before the hook is killed; defaults to `defaultHookTimeoutSecs(event)`. */
  timeoutSecs?: number
  /** Where it was configured (a settings file path), for messages and `hooks list`. */
  source?: string
  /** The plugin (`<plugin>@<marketplace>`) that added the hook. */
  plugin?: string
  /** Variables its process gets beside the session's (a plugin's `CLAUDE_PLUGIN_ROOT` and `CLAUDE_PLUGIN_DATA`). */
  env?: Readonly<Record<string, string>>
}

/** Hooks per event, in the order they were configured (lower layers first). */
export type HooksConfig = Partial<Record<HookEvent, readonly HookCommand[]>>

/** Every hook of `config` with `env` added to what its process gets. */
export function withHookEnv(config: HooksConfig, env: Readonly<Record<string, string>>): HooksConfig {
  return Object.fromEntries(
    Object.entries(config).map(([event, hooks]) => [
      event,
      (hooks ?? []).map((hook) => ({ ...hook, env: { ...hook.env, ...env } })),
    ]),
  ) as HooksConfig
}

/** Fields every hook receives on stdin. */
export interface HookCommonInput {
  sessionId: string
  transcriptPath: string
  cwd: string
  /** The mode the call or turn runs in, in Claude Code's spelling (`bypassPermissions`). */
  permissionMode?: string
  /** Set when the event happens inside a subagent: its id and type. */
  agentId?: string
  agentType?: string
}

/** A tool call's identity on the tool events (Claude Code sends `tool_use_id`). */
interface ToolCallFields {
  toolName: string
  toolInput: unknown
  toolUseId?: string
}

/** A model change (Claude Code's PreModelSwitch/PostModelSwitch fields). */
export interface ModelSwitchFields {
  /** The provider model id the session ran before. */
  fromModel: string
  /** The provider model id it runs after. */
  toModel: string
  /** What was asked for (an alias, a `provider:model` reference). */
  requestedModel: string | null
  /** `command`: `/model`; `sdk`: an embedder's `setModel` command. */
  source: 'command' | 'sdk'
  /** Prompt tokens the next request re-sends (0 before the first response). */
  contextTokens: number
}

/** The fields of an event Z Engine never fires (see HOOK_EVENT_TABLE): whatever `hooks test` is given. */
type OpenFields = Record<string, unknown>

/** What InstructionsLoaded hooks read: the file (absolute), its kind and why it was loaded. */
export interface InstructionsLoadedFields {
  filePath: string
  memoryType: 'User' | 'Project' | 'Local' | 'Managed'
  loadReason: 'session_start' | 'nested_traversal' | 'path_glob_match' | 'include' | 'compact'
  globs?: string[]
  triggerFilePath?: string
  parentFilePath?: string
}

/** A settings file about to apply, as ConfigChange hooks see it (Claude Code's `source`). */
export interface ConfigChangeFields {
  source: 'user_settings' | 'project_settings' | 'local_settings' | 'policy_settings' | 'skills'
  filePath?: string
}

/** The event-specific fields each event's hooks receive on stdin (camelCase; snake_case on stdin). */
export interface HookEventInputs {
  PreToolUse: ToolCallFields
  PostToolUse: ToolCallFields & { toolResponse: unknown }
  PostToolUseFailure: ToolCallFields & { error: string; isInterrupt?: boolean }
  /** Every call of a batch, once all have results (each in Claude Code's snake_case, as on stdin). */
  PostToolBatch: {
    toolCalls: Array<{ tool_name: string; tool_input: unknown; tool_use_id: string; tool_response?: unknown }>
  }
  /** Never fired (Claude Code fires it only on its auto-mode classifier's denials); its fields for `hooks test`. */
  PermissionDenied: ToolCallFields & { reason?: string }
  UserPromptSubmit: { prompt: string }
  /** A command became a prompt (Claude Code's fields; `prompt` is the expanded text). */
  UserPromptExpansion: {
    expansionType: 'slash_command' | 'mcp_prompt'
    commandName: string
    commandArgs: string
    prompt: string
  }
  SessionStart: { source: 'startup' | 'resume' | 'clear' | 'compact' }
  SessionEnd: { reason: 'clear' | 'logout' | 'prompt_input_exit' | 'other' }
  Stop: { stopHookActive: boolean }
  /** The turn ended on a model API error: Claude Code's error kind, and the provider's words. */
  StopFailure: { error: string; errorDetails?: string; lastAssistantMessage?: string }
  SubagentStart: { agentId: string; agentType: string }
  SubagentStop: {
    stopHookActive: boolean
    agentId: string
    agentType: string
    agentTranscriptPath?: string
    lastAssistantMessage?: string
  }
  PreCompact: { trigger: 'manual' | 'auto'; customInstructions: string }
  /** After a summary compaction: its trigger and the summary the conversation continues from. */
  PostCompact: { trigger: 'manual' | 'auto'; compactSummary: string }
  PreModelSwitch: ModelSwitchFields
  PostModelSwitch: ModelSwitchFields
  /** `notificationType` is Claude Code's (`permission_prompt`, `idle_prompt`, `elicitation_dialog`…). */
  Notification: { message: string; notificationType?: string; title?: string }
  /** The ask about to be shown; `permissionSuggestions` are Claude Code's permission updates. */
  PermissionRequest: ToolCallFields & { permissionSuggestions?: unknown[] }
  Setup: OpenFields
  TeammateIdle: OpenFields
  TaskCreated: OpenFields
  TaskCompleted: OpenFields
  Elicitation: OpenFields
  ElicitationResult: OpenFields
  /** A settings file changed and is about to apply (`/reload`); a block keeps the session's settings. */
  ConfigChange: ConfigChangeFields
  /** A worktree-isolated agent needs a worktree: `name` names it; the hook prints the folder it made. */
  WorktreeCreate: { name: string }
  /** A worktree a WorktreeCreate hook made is no longer needed (applied, discarded or left empty). */
  WorktreeRemove: { worktreePath: string }
  /** An instruction file entered the context (Claude Code's `memory_type` and `load_reason`). */
  InstructionsLoaded: InstructionsLoadedFields
  /** The main agent's shell moved (a Bash `cd`). */
  CwdChanged: { oldCwd: string; newCwd: string }
  /** A watched file (a FileChanged matcher's name) changed, appeared or went. */
  FileChanged: { filePath: string; event: 'change' | 'add' | 'unlink' }
  /** A folder the agent may work in was added (`slash_command`: `/add-dir`). */
  DirectoryAdded: { directory: string; source: 'slash_command' | 'register_repo_root' }
  MessageDisplay: OpenFields
  /** An embedded `` !`cmd` `` of a command or skill is about to run (Claude Code's fields). */
  PreSkillShellCommand: {
    toolName: string
    toolInput: { command: string }
    toolUseId: string
    commandName: string
    commandSource?: string
    invokedBy: 'user' | 'claude' | 'other'
  }
}

/** What a hook of event `E` receives (camelCase here; snake_case JSON on its stdin). */
export type HookInput<E extends HookEvent> = HookCommonInput & HookEventInputs[E]

/** A permission decision a PreToolUse hook may force. */
export type HookPermissionDecision = 'allow' | 'deny' | 'ask'

/** The recognised fields of a hook's JSON stdout, after validation. */
export interface HookJsonOutput {
  /** `false` stops the whole turn; `stopReason` is shown to the user. */
  continue?: boolean
  stopReason?: string
  /** Hide the hook's stdout from the transcript. */
  suppressOutput?: boolean
  /** A message shown to the user (not the model). */
  systemMessage?: string
  /** Legacy decision: `block` blocks like exit 2; `approve` allows a PreToolUse call. */
  decision?: 'block' | 'approve'
  reason?: string
  /** `hookSpecificOutput.hookEventName`: the event its hook-specific fields are meant for. */
  hookEventName?: string
  permissionDecision?: HookPermissionDecision
  permissionDecisionReason?: string
  /** `permissionDecision: "defer"` (Claude Code's hand-over to an SDK host): only PreSkillShellCommand reads it, as a refusal. */
  permissionDecisionDeferred?: true
  updatedInput?: Record<string, unknown>
  additionalContext?: string
  /** PermissionRequest: `hookSpecificOutput.decision`, the answer given instead of the user's. */
  permissionRequest?: PermissionRequestDecision
  /** WorktreeCreate: `hookSpecificOutput.worktreePath`, the folder made (a command hook may print it instead). */
  worktreePath?: string
}

/** A PermissionRequest hook's answer to an ask (Claude Code's `decision.behavior`). */
export type PermissionRequestDecision =
  | { behavior: 'allow'; updatedInput?: Record<string, unknown> }
  | { behavior: 'deny'; message?: string; interrupt?: boolean }

/** How one hook process ended. */
export type HookRunStatus =
  /** Exit 0 (its JSON, if any, was applied). */
  | 'success'
  /** Exit 2: blocks with stderr as the reason. */
  | 'blocked'
  /** Any other exit code, or a signal: a warning, then the engine continues. */
  | 'failed'
  /** Killed after its timeout: a warning, then the engine continues. */
  | 'timeout'
  /** The caller's signal aborted it. */
  | 'cancelled'
  /** It could not be started (or its matcher is not a valid regular expression). */
  | 'error'

/** One hook's run, kept whole so `hooks test` and the transcript lose nothing. */
export interface HookRunResult {
  hook: HookCommand
  status: HookRunStatus
  exitCode: number | null
  stdout: string
  stderr: string
  durationMs: number
  /** The validated JSON stdout (exit 0 only). */
  output?: HookJsonOutput
  /** Problems worth showing the user: non-zero exits, timeouts, malformed JSON, bad fields. */
  warnings: string[]
  /** What it asked for that this event ignores (a PreToolUse-only field on Stop, say). */
  ignored?: string[]
}

/** The combined effect of every matching hook of one event; results are in configuration order. */
export interface HookOutcome {
  event: HookEvent
  results: HookRunResult[]
  /**
   * Any hook blocked (exit 2, `decision: "block"`, or a PreToolUse `deny`). What that means is the
   * event's: PreToolUse denies the call, PostToolUse(Failure) feeds the reason to the model, UserPromptSubmit
   * drops the prompt, Stop/SubagentStop continue the run with it, PreCompact stops the compaction;
   * other events only show it.
   */
  blocked: boolean
  /** Every blocking hook's reason, in configuration order, joined by newlines. */
  blockReason?: string
  /** `false` when any hook said `continue: false`: the turn stops. */
  continue: boolean
  stopReason?: string
  /** PreToolUse: the strictest forced decision (deny > ask > allow). */
  permissionDecision?: HookPermissionDecision
  permissionDecisionReason?: string
  /** PreToolUse: the rewritten input (the last hook in configuration order that gave one wins). */
  updatedInput?: Record<string, unknown>
  /** PermissionRequest: the answer instead of the user's (a deny or a block wins over an allow). */
  permissionRequest?: PermissionRequestDecision
  /** Text for the model: plain stdout (UserPromptSubmit/SessionStart) and `additionalContext`. */
  additionalContext: string[]
  /** Messages for the user (`systemMessage`). */
  systemMessages: string[]
  /** Warnings for the user (non-zero exits, timeouts, malformed output), prefixed with the hook. */
  warnings: string[]
  /** Outcomes a hook asked for that this event ignores (also among `warnings`). */
  ignored: string[]
  suppressOutput: boolean
}
