import type { TextBlock } from '@z-engine/protocol'
import type { CommandDefinition } from '../definitions/types.js'
import { expandPluginVariables } from '../plugins/active.js'
import { agentMentionReminders } from './agent-mentions.js'
import { substituteArguments } from './arguments.js'
import { runEmbeddedCommands, type ShellRunResult } from './embedded-commands.js'
import { inlineFileReferences } from './inline-files.js'

/** What expanding a template needs from the session; every check is the caller's policy. */
export interface ExpandCommandDeps {
  projectRoot: string
  /** For `@~/…` references. */
  home?: string
  /** Whether the workspace is trusted; a project command's allowed-tools grant nothing until it is. */
  trusted: boolean
  /** May the model read this absolute path, counting the rules this command grants for its turn? */
  canRead(path: string, grantedRules: readonly string[]): boolean | Promise<boolean>
  /** May this shell line run, counting the rules this command grants for its turn? */
  canRun(command: string, grantedRules: readonly string[]): boolean | Promise<boolean>
  /** Runs a shell line in the project root. */
  runShell(command: string, cwd: string, signal?: AbortSignal): Promise<ShellRunResult>
  /** A plugin's `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}`, by plugin id (its commands and skills use them). */
  pluginVariables?(pluginId: string): Readonly<Record<string, string>> | undefined
  /** Agent types of the registry, for `@agent-<name>` reminders. */
  knownAgentTypes: readonly string[]
  signal?: AbortSignal
  /** PreSkillShellCommand hooks for each embedded line (see `runEmbeddedCommands`). */
  screenShellLine?(line: { command: string; commandName: string; commandSource: string }): Promise<{
    refused?: string
    stop?: string
  }>
}

/** A prompt command ready to start a turn. */
export interface ExpandedCommand {
  /** The user message: the visible `/name args`, then the body in `<command name="…">…</command>`. */
  content: [TextBlock, TextBlock]
  /** Permission rules granted for this turn only (from allowed-tools). */
  turnRules: string[]
  /** The model for this turn only. */
  model?: string
  /** `<system-reminder>`s to append to the opening message (`@agent-<name>` mentions). */
  reminders: string[]
  /** Things the user should know: files or commands left out, and why. */
  notices: string[]
  /** Absolute paths of the files inlined. */
  inlinedFiles: string[]
  /** The `` !`cmd` `` lines that ran. */
  ranCommands: string[]
  /** Set when a PreSkillShellCommand hook answered `continue: false`: its reason; start no turn. */
  stopped?: string
}

/**
 * Expands a custom or prompt built-in command (spec 000 "Commands"): arguments (`substituteArguments`),
 * then `` !`cmd` `` where allowed, then `@path` files the policy lets the model read (256 KiB each,
 * 1 MiB in all). Never throws on user input; what it leaves out is listed in `notices`.
 */
export async function expandCommand(
  definition: CommandDefinition,
  args: string,
  deps: ExpandCommandDeps,
): Promise<ExpandedCommand> {
  const notices: string[] = []
  const fromProject = definition.source.layer === 'project' || definition.source.layer === 'projectClaude'
  const turnRules = fromProject && !deps.trusted ? [] : [...definition.allowedTools]
  if (fromProject && !deps.trusted && definition.allowedTools.length > 0) {
    notices.push(`/${definition.name}'s allowed-tools were not granted: this workspace is not trusted yet.`)
  }

  const variables = definition.plugin === undefined ? undefined : deps.pluginVariables?.(definition.plugin)
  // Claude Code puts a plugin's folders into its command text before anything runs (`!` lines too).
  const body =
    variables === undefined ? definition.body : (expandPluginVariables(definition.body, variables) as string)
  const substituted = substituteArguments(body, args, {
    ...(definition.argumentNames === undefined ? {} : { names: definition.argumentNames }),
    ...(definition.skillDir === undefined ? {} : { skillDir: definition.skillDir }),
  })
  const embedded = await runEmbeddedCommands(substituted, {
    projectRoot: deps.projectRoot,
    canRun: (command) => deps.canRun(command, turnRules),
    runShell: deps.runShell,
    ...(deps.signal ? { signal: deps.signal } : {}),
    commandName: definition.name,
    ...(deps.screenShellLine
      ? {
          screen: (command: string) =>
            deps.screenShellLine!({
              command,
              commandName: definition.name,
              commandSource: definition.source.layer,
            }),
        }
      : {}),
  })
  notices.push(...embedded.notices)
  const inlined = await inlineFileReferences(embedded.text, {
    projectRoot: deps.projectRoot,
    ...(deps.home === undefined ? {} : { home: deps.home }),
    canRead: (path) => deps.canRead(path, turnRules),
    typed: args,
  })
  notices.push(...inlined.notices)

  const files = inlined.files.map(
    (file) => `<file path="${file.displayPath}">\n${file.content.replace(/\n$/, '')}\n</file>`,
  )
  const text = [embedded.text, ...files].join('\n\n')
  const visible = `/${definition.name}${args.trim() === '' ? '' : ` ${args.trim()}`}`
  const expanded: ExpandedCommand = {
    content: [
      { type: 'text', text: visible },
      { type: 'text', text: `<command name="${definition.name}">\n${text}\n</command>` },
    ],
    turnRules,
    reminders: agentMentionReminders(`${args}\n${embedded.text}`, deps.knownAgentTypes),
    notices,
    inlinedFiles: inlined.files.map((file) => file.path),
    ranCommands: embedded.ran,
  }
  if (definition.model !== undefined) expanded.model = definition.model
  if (embedded.stopped !== undefined) expanded.stopped = embedded.stopped
  return expanded
}
