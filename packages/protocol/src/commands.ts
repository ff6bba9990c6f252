/**
 * Commands: what a host (GUI, CLI, embedder) sends into a session. The session actor handles each
 * without blocking on the model or a tool, so cancel, steering and mode changes work mid-turn.
 */

import { AttachmentSchema } from './content.js'
import { RewindScopeSchema } from './history.js'
import { PlanDecisionSchema, QuestionResponseSchema } from './interaction.js'
import { ApprovalDecisionSchema, PermissionModeSchema } from './permission.js'
import { arr, bool, described, type Infer, str, tagged, variant } from './schema/builder.js'

const id = () => str({ minLength: 1 })

/** Schema of every command, by `type`. */
export const CommandSchemas = {
  submit: described(
    "Start a turn with the user's text (and attachments); while a turn runs it queues as steering.",
    variant('submit', { text: str() }, { attachments: arr(AttachmentSchema) }),
  ),
  steer: described(
    'Queue a steering message for the running turn (delivered with the next tool results or at the stop boundary).',
    variant('steer', { text: str({ minLength: 1 }) }),
  ),
  cancel: described(
    'Stop the foreground turn and its foreground subagents; outcome `cancelled`, queued steering dropped.',
    variant('cancel'),
  ),
  interrupt: described(
    'Stop the foreground turn (Esc); outcome `interrupted`, queued steering kept for the next turn.',
    variant('interrupt'),
  ),
  resolveApproval: described(
    'Answer one approval card.',
    variant('resolveApproval', { approvalId: id(), decision: ApprovalDecisionSchema }),
  ),
  answerQuestion: described(
    'Answer an AskUserQuestion request.',
    variant('answerQuestion', { questionId: id(), response: QuestionResponseSchema }),
  ),
  resolvePlan: described(
    'Approve or reject a proposed plan (ExitPlanMode).',
    variant('resolvePlan', { planId: id(), decision: PlanDecisionSchema }),
  ),
  setMode: described(
    'Change the permission mode (`bypassPermissions` is accepted and normalized to `bypass`).',
    variant('setMode', { mode: PermissionModeSchema }),
  ),
  setModel: described(
    'Change the main model for the following requests (a model id or a role: main, fast, review).',
    variant('setModel', { model: id() }),
  ),
  setTitle: described('Rename the session.', variant('setTitle', { title: str() })),
  runCommand: described(
    'Run a slash command by name (without `/`), with its raw argument string.',
    variant('runCommand', {
      name: id(),
      args: str({ description: 'The raw text after the name; may be empty.' }),
    }),
  ),
  runShell: described(
    'Run a user `!` shell command in the project root; counts as a change to the tree.',
    variant('runShell', { command: str({ minLength: 1 }) }),
  ),
  trustWorkspace: described(
    'Trust (records the root, reloads the session) or dismiss the trust request.',
    variant('trustWorkspace', { trusted: bool() }),
  ),
  resolveSuggestion: described(
    'Accept or dismiss a decision-layer suggestion.',
    variant('resolveSuggestion', { suggestionId: id(), accepted: bool() }),
  ),
  includeFullHistory: described(
    'Drop the current task view: the next request sends the full history again.',
    variant('includeFullHistory'),
  ),
  rewind: described(
    'Restore code, conversation or both to the state before the given user message. A code rewind reverts only the files the agent changed since (its tools and shell commands); files the user changed are left alone; in files the agent changed that were edited afterwards only the agent’s hunks are reverted (unless `includeEdited`). `dryRun` changes nothing and answers with `rewindPreviewed`.',
    variant(
      'rewind',
      { messageId: id(), scope: RewindScopeSchema },
      {
        dryRun: bool({
          description: 'List what the rewind would change (`rewindPreviewed`); nothing is written.',
        }),
        includeEdited: bool({
          description:
            "Revert files the agent changed that were edited afterwards whole (by default only the agent's hunks are reverted and the later edits kept).",
        }),
        only: arr(str({ minLength: 1 }), {
          description:
            'Rewind only these files (paths relative to the project), e.g. one whose conflicting hunks were left; the conversation is not touched.',
        }),
      },
    ),
  ),
  undoRewind: described(
    "Put back the files the session's last code rewind reverted (from the checkpoint taken just before it); files edited since the rewind are left alone. Answered by `rewindUndone`.",
    variant('undoRewind'),
  ),
  compact: described(
    'Summarize older history now (`/compact [focus]`, Compact now).',
    variant('compact', {}, { focus: str() }),
  ),
  killJob: described(
    'Stop a background job (shell with its process tree, or agent).',
    variant('killJob', { jobId: id() }),
  ),
  applyAgentChanges: described(
    "Merge a finished worktree agent's changes into the project.",
    variant('applyAgentChanges', { agentId: id() }),
  ),
  discardAgentChanges: described(
    "Remove a worktree agent's worktree and branch without applying.",
    variant('discardAgentChanges', { agentId: id() }),
  ),
  reloadSettings: described(
    'Re-read settings files, agents, commands and instructions.',
    variant('reloadSettings'),
  ),
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
