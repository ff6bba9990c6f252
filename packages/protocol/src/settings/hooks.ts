import { arr, type Infer, int, obj, str } from '../schema/builder.js'

/**
 * Hook events a settings file may configure (`[[hooks.<Event>]]`): Claude Code's whole set (2.1.332),
 * in its order. Which of them a session fires, and when, is the engine's hook event table.
 */
export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'PermissionDenied',
  'Notification',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'SessionStart',
  'SessionEnd',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'PreModelSwitch',
  'PostModelSwitch',
  'PermissionRequest',
  'Setup',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'Elicitation',
  'ElicitationResult',
  'ConfigChange',
  'WorktreeCreate',
  'WorktreeRemove',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'DirectoryAdded',
  'MessageDisplay',
  'PreSkillShellCommand',
] as const

/** The timeout of a hook command when `timeout_secs` is absent (Claude Code's: ten minutes). */
export const DEFAULT_HOOK_TIMEOUT_SECS = 600

/** The timeout of a UserPromptSubmit hook when `timeout_secs` is absent: the user is waiting. */
export const USER_PROMPT_HOOK_TIMEOUT_SECS = 30

/** Schema of {@link HookEntry}. */
export const HookEntrySchema = obj(
  { command: str({ minLength: 1 }) },
  {
    matcher: str({
      description:
        'What the event is matched on (tool name, agent type, trigger, source…): `*` or absent matches all; names joined by `|` (and, on most events, names with `-`, spaces or `,` lists) exact; anything else a regular expression. Ignored on events with nothing to match (UserPromptSubmit, Stop…).',
    }),
    if: str({
      minLength: 1,
      description:
        'Tool events only: a permission rule (`Bash(git *)`) the call must match for the hook to run.',
    }),
    timeout_secs: int({
      minimum: 1,
      description: `Seconds before the hook is killed; absent: ${DEFAULT_HOOK_TIMEOUT_SECS} (UserPromptSubmit: ${USER_PROMPT_HOOK_TIMEOUT_SECS}).`,
    }),
  },
)
/** One configured hook command. */
export type HookEntry = Infer<typeof HookEntrySchema>

/** Schema of the `[hooks]` table. */
export const HooksSection = obj(
  {},
  Object.fromEntries(HOOK_EVENTS.map((event) => [event, arr(HookEntrySchema)])) as {
    [E in (typeof HOOK_EVENTS)[number]]: ReturnType<typeof arr<typeof HookEntrySchema>>
  },
)
