/**
 * Commands: what a host (GUI, CLI, embedder) sends into a session. The session actor handles each
 * without blocking on the model or a tool, so cancel, steering and mode changes work mid-turn.
 */

import { AttachmentSchema } from './content.js'
import { RewindScopeSchema } from './history.js'
import { PlanDecisionSchema, QuestionResponseSchema } from './interaction.js'
import { ApprovalDecisionSchema, PermissionModeSchema } from './permission.js'
import { arr, bool, type Infer, str, tagged, variant } from './schema/builder.js'

const id = () => str({ minLength: 1 })

/** Schema of every command, by `type`. */
export const CommandSchemas = {
  /** Start a turn with the user's text (and attachments); while a turn runs it queues as steering. */
  submit: variant('submit', { text: str() }, { attachments: arr(AttachmentSchema) }),
  /** Queue a steering message for the running turn (delivered with the next tool results or at the stop boundary). */
  steer: variant('steer', { text: str({ minLength: 1 }) }),
  /** Stop the foreground turn and its foreground subagents; outcome `cancelled`, queued steering dropped. */
  cancel: variant('cancel'),
  /** Stop the foreground turn (Esc); outcome `interrupted`, queued steering kept for the next turn. */
  interrupt: variant('interrupt'),
  /** Answer one approval card. */
  resolveApproval: variant('resolveApproval', { approvalId: id(), decision: ApprovalDecisionSchema }),
  /** Answer an AskUserQuestion request. */
  answerQuestion: variant('answerQuestion', { questionId: id(), response: QuestionResponseSchema }),
  /** Approve or reject a proposed plan (ExitPlanMode). */
  resolvePlan: variant('resolvePlan', { planId: id(), decision: PlanDecisionSchema }),
  /** Change the permission mode (`bypassPermissions` is accepted and normalized to `bypass`). */
  setMode: variant('setMode', { mode: PermissionModeSchema }),
  /** Change the main model for the following requests (a model id or a role: main, fast, review). */
  setModel: variant('setModel', { model: id() }),
  /** Rename the session. */
  setTitle: variant('setTitle', { title: str() }),
  /** Run a slash command by name (without `/`), with its raw argument string. */
  runCommand: variant('runCommand', { name: id(), args: str() }),
  /** Run a user `!` shell command in the project root; counts as a change to the tree. */
  runShell: variant('runShell', { command: str({ minLength: 1 }) }),
  /** Trust (records the root, reloads the session) or dismiss the trust request. */
  trustWorkspace: variant('trustWorkspace', { trusted: bool() }),
  /** Accept or dismiss a decision-layer suggestion. */
  resolveSuggestion: variant('resolveSuggestion', { suggestionId: id(), accepted: bool() }),
  /** Drop the current task view: the next request sends the full history again. */
  includeFullHistory: variant('includeFullHistory'),
  /** Restore code, conversation or both to the state before the given user message. */
  rewind: variant('rewind', { messageId: id(), scope: RewindScopeSchema }),
  /** Summarize older history now (`/compact [focus]`, Compact now). */
  compact: variant('compact', {}, { focus: str() }),
  /** Stop a background job (shell with its process tree, or agent). */
  killJob: variant('killJob', { jobId: id() }),
  /** Merge a finished worktree agent's changes into the project. */
  applyAgentChanges: variant('applyAgentChanges', { agentId: id() }),
  /** Remove a worktree agent's worktree and branch without applying. */
  discardAgentChanges: variant('discardAgentChanges', { agentId: id() }),
  /** Re-read settings files, agents, commands and instructions. */
  reloadSettings: variant('reloadSettings'),
} as const

/** Every command `type`, in documentation order. */
export const COMMAND_TYPES = Object.keys(CommandSchemas) as CommandType[]

/** Schema of {@link Command}. */
export const CommandSchema = tagged(Object.values(CommandSchemas) as unknown as CommandSchemaList)
type CommandSchemaList = readonly (typeof CommandSchemas)[keyof typeof CommandSchemas][]

/** Every command a session accepts; a discriminated union on `type`. */
export type Command = Infer<(typeof CommandSchemas)[keyof typeof CommandSchemas]>
/** The `type` tags of commands. */
export type CommandType = keyof typeof CommandSchemas
/** The command of one `type`. */
export type CommandOf<T extends CommandType> = Extract<Command, { type: T }>
