import type { HookEvent } from './types.js'

/** When a session fires an event, or why it never does (Z Engine has no such moment). */
export type HookEventFiring = { fired: true; when: string } | { fired: false; why: string }

/** What one hook event is in Claude Code and in Z Engine: the one table both the settings and the Agent SDK read. */
export interface HookEventSpec {
  /** The stdin field a matcher is tested against; absent: matchers are ignored (they match every call). */
  matchOn?: string
  /**
   * Claude Code reads a matcher of names with `-`, spaces and `,` (a comma list) on this event as
   * names, not as a regular expression (`code-reviewer`, `Edit, Write`); elsewhere only letters,
   * digits, `_` and `|` are names.
   */
  punctuatedNames: boolean
  /** The stdin fields `hooks test` needs in its input (the others default). */
  required: readonly string[]
  /** When the engine fires it. */
  firing: HookEventFiring
}

const never = (why: string): HookEventFiring => ({ fired: false, why })
const at = (when: string): HookEventFiring => ({ fired: true, when })

/**
 * Claude Code's hook events (2.1.332) and what Z Engine does with each: the field a matcher tests,
 * how a matcher of names is read, and the moment it fires (or why it never does). Hooks configured
 * for an event that never fires are kept, listed, and reported by name when settings load.
 */
export const HOOK_EVENT_TABLE: Readonly<Record<HookEvent, HookEventSpec>> = {
  PreToolUse: {
    matchOn: 'tool_name',
    punctuatedNames: true,
    required: ['tool_name', 'tool_input'],
    firing: at('before each tool call, after its input is validated and before the permission decision'),
  },
  PostToolUse: {
    matchOn: 'tool_name',
    punctuatedNames: true,
    required: ['tool_name', 'tool_input'],
    firing: at('after a tool call succeeded'),
  },
  PostToolUseFailure: {
    matchOn: 'tool_name',
    punctuatedNames: true,
    required: ['tool_name', 'tool_input', 'error'],
    firing: at('after a tool call failed (its result is an error)'),
  },
  PostToolBatch: {
    punctuatedNames: false,
    required: ['tool_calls'],
    firing: at('once per tool batch, after every call has its result, before the next request'),
  },
  PermissionDenied: {
    matchOn: 'tool_name',
    punctuatedNames: true,
    required: ['tool_name', 'tool_input'],
    firing: never(
      'Claude Code fires it only when its auto-mode classifier denies a call; Z Engine has no such classifier (`auto` runs as acceptEdits)',
    ),
  },
  Notification: {
    matchOn: 'notification_type',
    punctuatedNames: true,
    required: ['message'],
    firing: at('when the engine waits on the user: an approval, a question or a plan to review'),
  },
  UserPromptSubmit: {
    punctuatedNames: false,
    required: ['prompt'],
    firing: at('when a user prompt is submitted, before the turn starts'),
  },
  UserPromptExpansion: {
    matchOn: 'command_name',
    punctuatedNames: true,
    required: ['command_name'],
    firing: at('when a /command or an MCP prompt becomes a prompt, before its turn; a block drops it'),
  },
  SessionStart: {
    matchOn: 'source',
    punctuatedNames: true,
    required: [],
    firing: at('when a session starts (`startup`) or is resumed (`resume`)'),
  },
  SessionEnd: {
    matchOn: 'reason',
    punctuatedNames: true,
    required: [],
    firing: at('once, when the session closes'),
  },
  Stop: {
    punctuatedNames: false,
    required: [],
    firing: at('when the main agent ends its turn without a tool call'),
  },
  StopFailure: {
    matchOn: 'error',
    punctuatedNames: false,
    required: ['error'],
    firing: at('when a turn ends on a model API error (`rate_limit`, `server_error`…; not a cancel)'),
  },
  SubagentStart: {
    matchOn: 'agent_type',
    punctuatedNames: true,
    required: ['agent_type'],
    firing: at('when a subagent is started, before its first request'),
  },
  SubagentStop: {
    matchOn: 'agent_type',
    punctuatedNames: true,
    required: ['agent_type'],
    firing: at('when a subagent ends its run without a tool call'),
  },
  PreCompact: {
    matchOn: 'trigger',
    punctuatedNames: true,
    required: ['trigger'],
    firing: at('before a summary compaction (`auto` under pressure, `manual` for /compact)'),
  },
  PostCompact: {
    matchOn: 'trigger',
    punctuatedNames: true,
    required: ['trigger'],
    firing: at('after a summary compaction of the main agent was recorded, with the summary'),
  },
  PreModelSwitch: {
    matchOn: 'to_model',
    punctuatedNames: true,
    required: ['to_model'],
    firing: at('before the session model changes (`/model`, `setModel`); a block keeps the model'),
  },
  PostModelSwitch: {
    matchOn: 'to_model',
    punctuatedNames: true,
    required: ['to_model'],
    firing: at('after the session model changed'),
  },
  PermissionRequest: {
    matchOn: 'tool_name',
    punctuatedNames: true,
    required: ['tool_name', 'tool_input'],
    firing: at('when a call is about to ask for approval; its allow or deny answers instead of the user'),
  },
  Setup: {
    matchOn: 'trigger',
    punctuatedNames: true,
    required: ['trigger'],
    firing: never(
      'Claude Code fires it for `claude --init`, `--init-only` and `--maintenance` (`trigger` `init` or `maintenance`); `z-engine` has no such setup run to fire it for',
    ),
  },
  TeammateIdle: {
    punctuatedNames: false,
    required: [],
    firing: never(
      'Claude Code fires it when an agent-team teammate is about to go idle (`teammate_name`, `team_name`); Z Engine has no agent teams (its subagents end with SubagentStop)',
    ),
  },
  TaskCreated: {
    punctuatedNames: false,
    required: [],
    firing: never(
      "Claude Code fires it when its TaskCreate tool adds a task to the shared task list (`task_id`, `task_subject`, teammate and team); Z Engine has no such list (TodoWrite's todos have no ids)",
    ),
  },
  TaskCompleted: {
    punctuatedNames: false,
    required: [],
    firing: never(
      "Claude Code fires it when a task of the shared task list is marked completed (`task_id`, `task_subject`, teammate and team); Z Engine has no such list (TodoWrite's todos have no ids)",
    ),
  },
  Elicitation: {
    matchOn: 'mcp_server_name',
    punctuatedNames: true,
    required: ['mcp_server_name'],
    firing: never(
      "Z Engine's MCP client declares no `elicitation` capability, so no server sends it `elicitation/create` to answer",
    ),
  },
  ElicitationResult: {
    matchOn: 'mcp_server_name',
    punctuatedNames: true,
    required: ['mcp_server_name'],
    firing: never(
      "Z Engine's MCP client declares no `elicitation` capability, so no server sends it `elicitation/create` to answer",
    ),
  },
  ConfigChange: {
    matchOn: 'source',
    punctuatedNames: true,
    required: ['source'],
    firing: at(
      'when `/reload` (or a trust or plugin change) is about to apply a settings file that changed; a block keeps the session settings',
    ),
  },
  WorktreeCreate: {
    punctuatedNames: false,
    required: ['name'],
    firing: at(
      'when a worktree-isolated agent starts: the hook makes the worktree instead of git and prints its path (a worktree of the project on its own branch)',
    ),
  },
  WorktreeRemove: {
    punctuatedNames: false,
    required: ['worktree_path'],
    firing: at(
      "when a WorktreeCreate hook's worktree is applied, discarded or left empty: the hook removes it instead of git",
    ),
  },
  InstructionsLoaded: {
    matchOn: 'load_reason',
    punctuatedNames: true,
    required: ['file_path'],
    firing: at(
      'for each instruction file as it enters the context: at session start, by import, nested, by glob',
    ),
  },
  CwdChanged: {
    punctuatedNames: false,
    required: ['old_cwd', 'new_cwd'],
    firing: at("after the main agent's Bash call moved its shell (`cd`)"),
  },
  FileChanged: {
    matchOn: 'file_path',
    punctuatedNames: false,
    required: ['file_path'],
    firing: at(
      'when a file a FileChanged matcher names (`.envrc|.env`, relative to the project) changes, appears or goes, watched from session start to close',
    ),
  },
  DirectoryAdded: {
    matchOn: 'source',
    punctuatedNames: true,
    required: ['directory', 'source'],
    firing: at('after `/add-dir` added a folder the agent may work in'),
  },
  MessageDisplay: {
    punctuatedNames: false,
    required: [],
    firing: never(
      "Claude Code fires it as its own terminal shows each piece of assistant text, and a hook may change what is shown; Z Engine's front ends render the text from the event stream, so the engine has no display to run it for",
    ),
  },
  PreSkillShellCommand: {
    matchOn: 'tool_name',
    punctuatedNames: true,
    required: ['tool_input', 'command_name'],
    firing: at(
      'before each `` !`cmd` `` of a command or skill runs; a deny, ask or rewrite keeps it from running',
    ),
  },
}

/** The reason hooks configured for `event` never run, or undefined when a session fires it. */
export function neverFiredReason(event: HookEvent): string | undefined {
  const firing = HOOK_EVENT_TABLE[event].firing
  return firing.fired ? undefined : firing.why
}
