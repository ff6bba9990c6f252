import type { Action, Decision } from '@z-engine/policy'
import type {
  Checkpoint,
  ContentBlock,
  Cost,
  LogRecord,
  PermissionMode,
  RewindConflict,
  SuggestedRule,
  ToolUseBlock,
  Usage,
  VerificationBadge,
} from '@z-engine/protocol'
import type { CheckInfo, ToolCtx, ToolResult } from '@z-engine/tools'
import type { BatchCallRecord, PermissionRequestAnswer, PreToolUseVerdict } from '../batch/batch-types.js'
import type { CanUseTool } from '../batch/can-use-tool.js'
import type { AgentReliefFn, SubagentCompactionTarget } from '../compaction/agent-relief.js'
import type { DecisionHub } from '../decisions/hub.js'
import type { ModelPort } from '../model/model-port.js'
import type { SystemSection } from '../model/types.js'
import type { ShellRun } from '../verification/session-verification.js'
import type { StopVerdict } from '../verification/stop-checks.js'
import type { ConfigChangeFields, InstructionsLoadedFields } from '../workspace/hooks/types.js'
import type { WorktreeHookCreate, WorktreeHookRemove } from './worktree-hooks.js'

/** The session's verification as turns and batches see it (spec 000 "Verification"). */
export interface VerificationPort {
  /** A mark of "now" among changes and check records (a turn takes one when it starts). */
  mark(): number
  /** A tool call changed (or may have changed) the tree. */
  noteChange(): void
  /** A Bash call finished: when it ran a check's command, it counts as that check's run. */
  noteShellRun?(run: ShellRun): Promise<void>
  /** The badge of the turn that started at `mark`. */
  badge(mark: number): Promise<VerificationBadge>
  /** Verification at the stop boundary (auto and strict modes): end, or continue with feedback. */
  atStop(mark: number, continuationsUsed: number, signal: AbortSignal): Promise<StopVerdict>
  /** The checks known now (for Verify's action); undefined before discovery finished. */
  known(): readonly CheckInfo[] | undefined
}

/** Where a session's records go (the store's log handle). */
export interface SessionLogPort {
  append(record: LogRecord): Promise<void>
  /** Appends to a subagent's own transcript (`agents/<agentId>.jsonl`). */
  appendAgent(agentId: string, record: LogRecord): Promise<void>
  /** Flushes to disk (called at turn boundaries). */
  sync(): Promise<void>
  close(): Promise<void>
}

/** The permission gate as the session sees it: policy plus session rules and mode. */
export interface GatePort {
  /** `projectRoot` overrides the session's for an agent rooted elsewhere (a worktree agent). */
  decide(toolName: string, action: Action, mode: PermissionMode, projectRoot?: string): Decision
  /** Resolves once `decide` has every fact it uses (the sandbox probe); absent: it always has. */
  ready?(): Promise<void>
  /** Adds an AllowSession rule (and, for `project`, persists it to settings.local.toml). */
  grant(rule: string, scope: 'session' | 'project'): Promise<void>
}

/** Who makes a tool call, for its hooks' stdin and `if` conditions. */
export interface HookCallSite {
  /** The mode the call is decided in. */
  mode: PermissionMode
  /** The agent's root (project or worktree) and shell cwd, where the call's paths resolve. */
  root: string
  cwd: string
  /** A subagent's id and type; absent for the main agent. */
  agentId?: string
  agentType?: string
}

/** The subagent a SubagentStart or SubagentStop hook is about. */
export interface HookSubagent {
  id: string
  type: string
  /** Its transcript, when it has its own (SubagentStop). */
  transcriptPath?: string
  /** Its latest text (SubagentStop). */
  lastAssistantMessage?: string
}

/** Why a session closed, as SessionEnd hooks receive it (Claude Code's `reason`). */
export type SessionEndReason = 'clear' | 'logout' | 'prompt_input_exit' | 'other'

/** The hooks a session runs (spec 000 "Hooks"); each resolves to a combined outcome, never throws. */
export interface HookPort {
  preToolUse(
    toolName: string,
    input: Record<string, unknown>,
    toolUseId: string,
    site?: HookCallSite,
  ): Promise<PreToolUseVerdict>
  /** PostToolUse after a success, PostToolUseFailure after a failure (Claude Code's split). */
  postToolUse(
    toolName: string,
    input: Record<string, unknown>,
    result: ToolResult,
    site?: HookCallSite,
    toolUseId?: string,
  ): Promise<{ additionalContext?: string; stop?: string }>
  /**
   * PermissionRequest: an approval is about to be asked; a hook may answer it instead of the user
   * (allow, with a rewritten input, or deny with a message); `stop` when a hook stopped the turn.
   */
  permissionRequest?(request: PermissionRequestCall, site?: HookCallSite): Promise<PermissionRequestAnswer>
  /** InstructionsLoaded: an instruction file entered the context; it only informs. */
  instructionsLoaded?(file: InstructionsLoadedFields): Promise<void>
  /** UserPromptSubmit: may block the prompt or add context. */
  userPromptSubmit(prompt: string): Promise<{ blocked?: string; additionalContext?: string }>
  /**
   * Stop (main agent): may block with a reason the run continues with; `stop` (a hook answered
   * `continue: false`) ends the turn anyway, with its stopReason for the user.
   */
  stop(stopHookActive: boolean): Promise<{ blocked?: string; stop?: string }>
  /** SubagentStart: matched on the agent type; its context goes to the subagent. */
  subagentStart?(agent: HookSubagent): Promise<{ additionalContext?: string }>
  /** SubagentStop: matched on the agent type; may block with a reason the subagent continues with. */
  subagentStop?(stopHookActive: boolean, agent: HookSubagent): Promise<{ blocked?: string }>
  sessionStart(source: 'startup' | 'resume'): Promise<{ additionalContext?: string }>
  /** PreCompact: runs before a summary; a block (exit 2) stops this compaction with its reason. */
  preCompact(trigger: 'auto' | 'manual', customInstructions: string): Promise<{ blocked?: string }>
  /** SessionEnd: runs once when the session closes; it only informs. */
  sessionEnd?(reason: SessionEndReason): Promise<void>
  /** Notification: the engine waits on the user (an approval or a question); it only informs. */
  notification?(message: string): Promise<void>
  /** UserPromptExpansion: a command became a prompt; a block drops it, context joins it. */
  userPromptExpansion?(expansion: {
    expansionType: 'slash_command' | 'mcp_prompt'
    commandName: string
    commandArgs: string
    prompt: string
  }): Promise<{ blocked?: string; additionalContext?: string }>
  /** PostToolBatch: every call of a batch has its result; it only informs. */
  postToolBatch?(calls: BatchCallRecord[], site?: HookCallSite): Promise<void>
  /** StopFailure: the turn ended on a model API error (Claude Code's error kind); it only informs. */
  stopFailure?(error: string, details: string): Promise<void>
  /** PostCompact: after a summary compaction was recorded; it only informs. */
  postCompact?(trigger: 'auto' | 'manual', summary: string): Promise<void>
  /** DirectoryAdded: `/add-dir` added a folder; it only informs (system messages are shown). */
  directoryAdded?(directory: string): Promise<void>
  /** CwdChanged: the main agent's shell moved; it only informs. */
  cwdChanged?(oldCwd: string, newCwd: string): Promise<void>
  /**
   * PreSkillShellCommand: an embedded `` !`cmd` `` of a command or skill is about to run. `refused`
   * (the hook's reason, maybe empty) keeps it from running; `stop` (`continue: false`) drops the command.
   */
  preSkillShellCommand?(line: SkillShellLine): Promise<{ refused?: string; stop?: string }>
  /** ConfigChange: a changed settings file is about to apply; `blocked` keeps the session's settings. */
  configChange?(change: ConfigChangeFields): Promise<{ blocked?: string }>
  /** PreModelSwitch: before the session's model changes; a block (exit 2) keeps the model. */
  preModelSwitch?(change: ModelSwitch): Promise<{ blocked?: string }>
  /** PostModelSwitch: after the session's model changed; it only informs. */
  postModelSwitch?(change: ModelSwitch): Promise<void>
  /** FileChanged: a file a FileChanged matcher names changed (`change`), appeared (`add`) or went (`unlink`); it only informs. */
  fileChanged?(filePath: string, event: 'change' | 'add' | 'unlink'): Promise<void>
  /** WorktreeCreate: when configured, the hooks make a worktree-isolated agent's worktree instead of git. */
  worktreeCreate?(name: string): Promise<WorktreeHookCreate>
  /** WorktreeRemove: when configured, the hooks remove a worktree a WorktreeCreate hook made. */
  worktreeRemove?(worktreePath: string): Promise<WorktreeHookRemove>
}

/** The ask a PermissionRequest hook answers. */
export interface PermissionRequestCall {
  toolName: string
  input: Record<string, unknown>
  toolUseId: string
  /** The rule the approval card would offer. */
  suggestion?: SuggestedRule
}

/** An embedded shell line of a command or skill, as PreSkillShellCommand hooks see it. */
export interface SkillShellLine {
  command: string
  commandName: string
  /** Names this line (no tool call of the transcript has it). */
  toolUseId: string
  /** Where the command comes from (its definition's layer). */
  commandSource?: string
  invokedBy: 'user' | 'claude' | 'other'
}

/** A change of the session's model, as the model-switch hooks see it. */
export interface ModelSwitch {
  fromModel: string
  toModel: string
  requestedModel: string
  source: 'command' | 'sdk'
  contextTokens: number
}

/** Working-tree snapshots (shadow git) for rewind. */
export interface CheckpointPort {
  /** Snapshots the tree before a user turn; undefined when checkpoints are off or failed (a notice says why). */
  create(messageId: string, turnId: string): Promise<Checkpoint | undefined>
  /**
   * Records the tree as a turn left it, so a rewind can tell the agent's changes from the user's.
   * `mutated` false: the turn wrote nothing, so its starting checkpoint stands for its end.
   */
  afterTurn?(turnId: string, before: Checkpoint | undefined, mutated: boolean): Promise<void>
  /**
   * Stages the working tree as the after-turn snapshot would, without recording anything, so that
   * snapshot has only to confirm nothing changed since (run while a request after a writing batch
   * is in flight: the answer may end the turn). Never fails: the snapshot itself reports problems.
   */
  stage?(): Promise<void>
  /**
   * Rewinds files to a checkpoint: only those the agent changed in the turns since (`turns`, the
   * checkpoints taken from the target on, in order); the user's own changes are left alone. In a
   * file the agent changed that was edited afterwards only the agent's hunks are reverted (a
   * three-way merge), unless `includeEdited` reverts it whole. `only` limits the rewind to those
   * paths. `dryRun` reports the same, with each file's hunks, without writing; `undoKey` records
   * the trees before and after so `undo(undoKey)` can put the reverted files back.
   */
  restore(
    checkpoint: Checkpoint,
    turns?: readonly Checkpoint[],
    options?: { dryRun?: boolean; includeEdited?: boolean; undoKey?: string; only?: readonly string[] },
  ): Promise<FileRewind>
  /**
   * Puts back what the last `restore` under `undoKey` reverted, except files edited since; undefined
   * when there is nothing to undo.
   */
  undo?(undoKey: string): Promise<{ restored: string[]; skipped: string[] } | undefined>
}

/** What a file rewind did (or, for a dry run, would do). */
export interface FileRewind {
  /** Files written back or removed. */
  restored: string[]
  /** Files the agent changed that were edited afterwards and cannot be merged (binary, created, removed): left as they are. */
  skipped: string[]
  /** Files changed since the checkpoint that the agent did not change: left as they are. */
  leftAlone: string[]
  /** Turns with no record of how they ended, whose every change counted as the agent's. */
  unmarkedTurns: string[]
  /** Files the agent changed that were edited afterwards: the agent's hunks reverted, the later edits kept. */
  merged: string[]
  /** Merged files with regions where a later edit overlaps the agent's change: those were left. */
  conflicts: RewindConflict[]
  /** A dry run's hunks per file: the file now against what the rewind would write. */
  changes?: Array<{ path: string; unifiedDiff: string }>
}

/** Everything a session needs from outside; built by the Engine, replaced by fakes in tests. */
export interface SessionServices {
  log: SessionLogPort
  gate: GatePort
  hooks: HookPort
  checkpoints: CheckpointPort
  models: ModelPort
  /** Builds one call's capability bundle. */
  toolCtx(params: {
    agentId: string
    toolUseId: string
    cwd: () => string
    setCwd: (cwd: string) => void
    progress: ToolCtx['progress']
  }): ToolCtx
  /** The cache-stable system sections (base prompt, environment, instructions, skills, style, repo map). */
  system(modelRef: string): Promise<SystemSection[]>
  /** Blocks a user prompt's `@server:uri` mentions attach to its message, and notices about them. */
  promptAttachments?(
    text: string,
    signal: AbortSignal,
  ): Promise<{ blocks: ContentBlock[]; notices: string[] }>
  /** Reminders due when a user turn starts (files changed outside the agent's tools). */
  turnReminders?(): Promise<string[]>
  /** A fresh first-touch tracker for a subagent rooted at `root` (nested instructions, glob rules). */
  agentContext?(
    root: string,
  ): (calls: readonly ToolUseBlock[], changedFiles: readonly string[], cwd: string) => Promise<string[]>
  /** A subagent's context pressure relief (spec 003: subagents compact like the main agent); absent: none. */
  agentRelief?(target: SubagentCompactionTarget): AgentReliefFn
  /** Reminders for what a batch touched first (nested instructions, glob rules); none when absent. */
  afterBatch?(calls: readonly ToolUseBlock[], changedFiles: readonly string[], cwd: string): Promise<string[]>
  /** The user's home folder (for `~` in tool input). */
  home: string
  /** Cost of one request's usage for a model. */
  costOf(usage: Usage, modelRef: string): Cost
  /** Checks, records and badges; absent: a changed turn is Unverified, and nothing runs at the stop. */
  verification?: VerificationPort
  /** The host's permission callback with its timeout (`canUseTool`); absent: the policy's verdict stands. */
  canUseTool?: { callback: CanUseTool; timeoutMs: number }
  /** The decision layer (spec 000 "Decision seams"); absent when every `decisions_*` feature is off. */
  decisions?: DecisionHub
}
