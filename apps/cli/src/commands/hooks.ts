import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { HookEvent, HookInput } from '@z-engine/engine'
import {
  claudePermissionMode,
  defaultHookTimeoutSecs,
  HOOK_EVENT_TABLE,
  type HookCommand,
  hookPayload,
  matcherKind,
  runHooksStandalone,
} from '@z-engine/engine/hooks'
import { childEnvironmentFor } from '@z-engine/engine/settings'
import { HOOK_EVENTS } from '@z-engine/protocol'
import { EXIT, UsageError, unknownWordError } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { type InspectContext, inspectContext, subcommand } from '../inspect/inspect-context.js'
import { printJson, printLines } from '../output.js'

const HELP = `Usage: z-engine hooks list [--json] [--cwd DIR]
       z-engine hooks test <Event> --input <file> [--json] [--cwd DIR]

list: the command hooks a session in DIR would run, by event, with matcher (and how it is read:
all, exact, list, regex, or ignored on events with nothing to match), \`if\` condition, timeout
(the event's default when none is set) and the settings file that configured each (project hooks
are withheld until the workspace is trusted).

test: runs the hooks of <Event> that match the input, exactly as a session would (confined by the
sandbox whenever a backend exists, with the same view, masks and process scope), and prints the
stdin they got, each hook's outcome (status, exit code, output, warnings) and the combined decision.
The input file holds the event's fields, e.g. {"tool_name": "Bash", "tool_input": {"command": "ls"}}
(snake_case or camelCase); session_id, transcript_path, cwd and permission_mode (the project's
default mode) default to test values; agent_id and agent_type make it a subagent's call. It exits
1 when a hook asks for something the event ignores (a decision on Stop, exit 2 on SessionStart).
Events: ${wrapWords(HOOK_EVENTS.join(', '), 92)}.
`

/** Words joined into lines of at most `width` characters. */
function wrapWords(text: string, width: number): string {
  const lines: string[] = []
  for (const word of text.split(' ')) {
    const last = lines.at(-1)
    if (last !== undefined && last.length + 1 + word.length <= width)
      lines[lines.length - 1] = `${last} ${word}`
    else lines.push(word)
  }
  return lines.join('\n')
}

/** `z-engine hooks list|test`: configured hooks, and a dry run of one event's hooks. */
export async function main(io: CommandIo): Promise<number> {
  const context = await inspectContext(io, HELP, { input: { type: 'string' } })
  if (!context) return EXIT.ok
  const which = subcommand(context.args, ['list', 'test'], 'hooks')
  if (which === 'test') return test(context)
  const hooks = context.loaded.hooks
  const notices = context.loaded.notices.filter((notice) => notice.key?.startsWith('hooks') ?? false)
  if (context.json) {
    printJson(io, {
      projectRoot: context.projectRoot,
      hooks: Object.fromEntries(
        Object.entries(hooks).map(([event, list]) => [
          event,
          (list ?? []).map((hook) => describeHook(event as HookEvent, hook)),
        ]),
      ),
      // Events whose hooks a session never runs, with why (HOOK_EVENT_TABLE).
      neverFired: Object.fromEntries(
        Object.keys(hooks).flatMap((event) => {
          const firing = HOOK_EVENT_TABLE[event as HookEvent].firing
          return firing.fired ? [] : [[event, firing.why]]
        }),
      ),
      withheld: context.loaded.trustRequired,
      notices,
    })
    return notices.some((notice) => notice.severity === 'error') ? EXIT.failed : EXIT.ok
  }
  const lines: string[] = []
  for (const event of HOOK_EVENTS) {
    for (const hook of hooks[event as HookEvent] ?? [])
      lines.push(
        `${event.padEnd(18)} ${(hook.matcher ?? '*').padEnd(12)} ${hook.if ? `if ${hook.if}  ` : ''}${hook.command}  (timeout ${hook.timeoutSecs ?? defaultHookTimeoutSecs(event as HookEvent)}s, ${hook.source ?? 'settings'})`,
      )
  }
  if (lines.length === 0) lines.push(`No hooks configured for ${context.projectRoot}.`)
  if (context.loaded.trustRequired.includes('hooks'))
    lines.push("note: this project's hooks are withheld until you trust the workspace (z-engine trust).")
  for (const notice of notices) lines.push(`${notice.severity}: ${notice.message}`)
  printLines(io, lines)
  return notices.some((notice) => notice.severity === 'error') ? EXIT.failed : EXIT.ok
}

/** One hook as `hooks list --json` shows it: every field, with the defaults a session applies. */
function describeHook(event: HookEvent, hook: HookCommand) {
  return {
    command: hook.command,
    matcher: hook.matcher ?? '',
    matcherKind: matcherKind(hook.matcher, event),
    if: hook.if ?? null,
    timeoutSecs: hook.timeoutSecs ?? defaultHookTimeoutSecs(event),
    timeoutIsDefault: hook.timeoutSecs === undefined,
    source: hook.source ?? null,
    plugin: hook.plugin ?? null,
    // What its process gets beside the session's environment (a plugin's CLAUDE_PLUGIN_ROOT/DATA).
    env: hook.env ?? {},
  }
}

/** Defaults for the fields a session would give an event's hooks (the table's `required` ones are not defaulted). */
const DEFAULTS: Partial<Record<HookEvent, Record<string, unknown>>> = {
  PostToolUse: { toolResponse: {} },
  SessionStart: { source: 'startup' },
  SessionEnd: { reason: 'other' },
  Stop: { stopHookActive: false },
  SubagentStart: { agentId: 'hooks-test-agent' },
  SubagentStop: { agentId: 'hooks-test-agent', stopHookActive: false },
  PreCompact: { customInstructions: '' },
}

function camel(key: string): string {
  return key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())
}

async function test(context: InspectContext): Promise<number> {
  const eventName = context.args[1]
  if (eventName === undefined) throw new UsageError(`'hooks test' needs an event: ${HOOK_EVENTS.join(', ')}.`)
  if (!(HOOK_EVENTS as readonly string[]).includes(eventName))
    throw unknownWordError('hook event', eventName, HOOK_EVENTS)
  const file = context.flags.input
  if (typeof file !== 'string')
    throw new UsageError("'hooks test' needs --input <file> (the JSON the hooks receive).")
  let raw: unknown
  try {
    raw = JSON.parse(await readFile(resolve(context.io.cwd, file), 'utf8'))
  } catch (error) {
    throw new UsageError(`--input ${file}: ${(error as Error).message}; give a file holding one JSON object.`)
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new UsageError(`--input ${file} must hold a JSON object.`)
  const event = eventName as HookEvent
  const fields: Record<string, unknown> = {
    sessionId: 'hooks-test',
    transcriptPath: '',
    cwd: context.projectRoot,
    permissionMode: claudePermissionMode(context.loaded.settings.permissions.mode),
    ...DEFAULTS[event],
  }
  for (const [key, value] of Object.entries(raw)) if (key !== 'hook_event_name') fields[camel(key)] = value
  const missing = HOOK_EVENT_TABLE[event].required.filter((key) => fields[camel(key)] === undefined)
  if (missing.length > 0)
    throw new UsageError(
      `--input ${file}: a ${event} hook gets ${missing.map((key) => `"${key}"`).join(' and ')} from a session; add ${missing.length > 1 ? 'them' : 'it'}.`,
    )
  const input = fields as unknown as HookInput<typeof event>
  // Run as a session's hooks run (issue 34): confined whenever a backend exists, with its masks and
  // process scope, so a hook that passes here behaves the same in a session.
  const { outcome, warning } = await runHooksStandalone(event, input, context.loaded.hooks, {
    settings: context.loaded.settings,
    layers: context.loaded.layers,
    projectRoot: context.projectRoot,
    home: context.home,
    env: context.io.env,
    // The environment a session's hooks get: the allowlist, never the engine's credentials.
    hookEnv: childEnvironmentFor(context.io.env, context.loaded.settings),
    engineDirs: [context.configDir, context.dataDir],
    // `if` conditions resolve paths as the main agent's calls do.
    call: {
      projectRoot: context.projectRoot,
      cwd: typeof input.cwd === 'string' ? input.cwd : context.projectRoot,
      home: context.io.env.HOME ?? '/',
    },
  })
  // A hook asking for what the event ignores would silently do nothing in a session: say so.
  const code = outcome.ignored.length > 0 ? EXIT.failed : EXIT.ok
  if (context.json) {
    printJson(context.io, {
      stdin: hookPayload(event, input),
      ...outcome,
      ...(warning !== undefined ? { warning } : {}),
    })
    return code
  }
  const lines = outcome.results.map(
    (result) =>
      `${result.status.padEnd(9)} exit ${String(result.exitCode).padEnd(4)} ${result.durationMs} ms  ${result.hook.command}${result.warnings.length > 0 ? `\n    ${result.warnings.join('\n    ')}` : ''}`,
  )
  if (lines.length === 0) lines.push(`No ${event} hook matches this input.`)
  lines.push(
    '',
    `decision: ${outcome.blocked ? `blocked${outcome.blockReason ? ` (${outcome.blockReason})` : ''}` : 'not blocked'}${outcome.continue ? '' : `, stops the turn${outcome.stopReason ? ` (${outcome.stopReason})` : ''}`}`,
  )
  if (outcome.permissionDecision)
    lines.push(
      `permission: ${outcome.permissionDecision}${outcome.permissionDecisionReason ? ` (${outcome.permissionDecisionReason})` : ''}`,
    )
  if (outcome.updatedInput) lines.push(`updated input: ${JSON.stringify(outcome.updatedInput)}`)
  for (const context_ of outcome.additionalContext) lines.push(`context for the model: ${context_}`)
  for (const message of outcome.systemMessages) lines.push(`message: ${message}`)
  for (const ignored of outcome.ignored) lines.push(`ignored by a session: ${ignored}`)
  if (warning !== undefined) lines.push(`warning: ${warning}`)
  printLines(context.io, lines)
  return code
}
