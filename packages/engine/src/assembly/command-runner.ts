import { randomUUID } from 'node:crypto'
import type { Confinement } from '@z-engine/policy'
import type { ContentBlock } from '@z-engine/protocol'
import { actionFor, grantOf } from '@z-engine/tools'
import type { CommandAction, TurnInput } from '../session/session-types.js'
import {
  buildCommandCatalog,
  type CatalogEntry,
  type CatalogSources,
  type CommandCatalog,
  resolveCommand,
} from '../workspace/commands/catalog.js'
import { expandCommand } from '../workspace/commands/expand.js'
import { mapMcpPromptArguments } from '../workspace/commands/mcp-prompt-arguments.js'
import { builtinCommandDefinitions, loadCommandDefinitions } from '../workspace/definitions/load.js'
import { runBuiltin } from './builtin-commands.js'
import type { CommandRunnerDeps } from './command-runner-deps.js'
import { EMBEDDED_SHELL_TIMEOUT_MS } from './standalone-expansion.js'
import { runUserShell } from './user-shell.js'

/**
 * Resolves and runs `runCommand` (spec 000 "Commands"): engine built-ins answer without the model
 * (informational ones as `commandOutput`), prompt and custom commands expand into a turn, unknown
 * names get a notice with close matches.
 */
export class CommandRunner {
  #definitions: Promise<CatalogSources> | undefined

  constructor(private readonly deps: CommandRunnerDeps) {}

  /** The session's command catalog: definitions loaded once, MCP prompts of the servers ready now. */
  async catalog(): Promise<CommandCatalog> {
    const sources = await this.#sources()
    return buildCommandCatalog({ ...sources, mcpPrompts: this.deps.mcp?.promptCommands() ?? [] })
  }

  /** Loads the command definitions once, reporting broken ones and shadowed names once. */
  #sources(): Promise<CatalogSources> {
    this.#definitions ??= loadCommandDefinitions({
      projectRoot: this.deps.projectRoot,
      home: this.deps.home,
      configDir: this.deps.configDir,
      compatClaude: this.deps.settings.compat.claude,
      ...(this.deps.userFiles === false ? { userFiles: false } : {}),
      ...(this.deps.plugins !== undefined ? { plugins: this.deps.plugins } : {}),
    }).then((loaded) => {
      const session = this.deps.session
      for (const error of loaded.errors)
        session.notice('warning', `${error.path}: ${error.message}`, 'command_definition')
      const sources = { custom: loaded.definitions, promptBuiltins: builtinCommandDefinitions() }
      for (const warning of buildCommandCatalog(sources).warnings)
        session.notice('warning', warning, 'command_definition')
      return sources
    })
    return this.#definitions
  }

  /** Forgets the loaded command definitions (after a settings reload), so the next use reads them again. */
  reset(): void {
    this.#definitions = undefined
  }

  /** Runs one command; returns what the session should do next. */
  async run(name: string, args: string): Promise<CommandAction> {
    const resolution = resolveCommand(await this.catalog(), name)
    if (!resolution.ok) return { type: 'notice', level: 'warning', message: resolution.notice }
    const action = await this.#runEntry(resolution.entry, args)
    if (action.type !== 'turn' || resolution.entry.kind === 'engine') return action
    return this.#expansionHooks(
      action.input,
      resolution.entry.kind === 'mcp' ? 'mcp_prompt' : 'slash_command',
      args,
    )
  }

  /**
   * UserPromptExpansion hooks (Claude Code's): a command became a prompt. A block (exit 2) drops the
   * turn with its reason; their context goes to the model with the prompt.
   */
  async #expansionHooks(
    input: TurnInput,
    expansionType: 'slash_command' | 'mcp_prompt',
    args: string,
  ): Promise<CommandAction> {
    const hooks = this.deps.session.services.hooks
    if (hooks.userPromptExpansion === undefined || input.command === undefined) return { type: 'turn', input }
    const content = input.content ?? [{ type: 'text' as const, text: input.text }]
    const prompt = content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n')
    const verdict = await hooks.userPromptExpansion({
      expansionType,
      commandName: input.command,
      commandArgs: args,
      prompt,
    })
    if (verdict.blocked !== undefined)
      return {
        type: 'notice',
        level: 'warning',
        message: `/${input.command} was not run: ${verdict.blocked}`,
      }
    if (verdict.additionalContext === undefined) return { type: 'turn', input }
    return {
      type: 'turn',
      input: { ...input, content: [...content, { type: 'text', text: verdict.additionalContext }] },
    }
  }

  async #runEntry(entry: CatalogEntry, args: string): Promise<CommandAction> {
    switch (entry.kind) {
      case 'engine':
        return runBuiltin(entry.name, args.trim(), this.deps)
      case 'custom':
      case 'prompt': {
        const session = this.deps.session
        // The confinement each allowed embedded line's permission relied on, for when it runs.
        const confinements = new Map<string, Confinement>()
        const expanded = await expandCommand(entry.definition, args, {
          projectRoot: this.deps.projectRoot,
          home: this.deps.home,
          trusted: this.deps.trusted,
          pluginVariables: (id) => this.deps.plugins?.find((plugin) => plugin.id === id)?.variables,
          canRead: (path, granted) => this.#allowed('Read', { file_path: path }, granted),
          // A line is decided with the sandbox's facts, so it waits for the session's probe.
          canRun: async (command, granted) => {
            await this.deps.gate.ready()
            return this.#allowed('Bash', { command }, granted, (confinement) =>
              confinements.set(command, confinement),
            )
          },
          runShell: async (command, cwd, signal) => {
            const confinement = confinements.get(command)
            const result = await runUserShell(command, {
              request: {
                root: this.deps.projectRoot,
                additionalDirectories: this.deps.gate.additionalDirectories,
                ...grantOf(confinement),
              },
              ...(this.deps.sandbox ? { sandbox: this.deps.sandbox } : {}),
              ...(this.deps.scope ? { scope: this.deps.scope } : {}),
              cwd,
              settings: this.deps.settings,
              baseEnv: this.deps.baseEnv,
              timeoutMs: EMBEDDED_SHELL_TIMEOUT_MS,
              ...(signal ? { signal } : {}),
            })
            return { exitCode: result.exitCode, stdout: result.output, stderr: '' }
          },
          knownAgentTypes: this.deps.agents.map((agent) => agent.name),
          screenShellLine: async (line) =>
            (await session.services.hooks.preSkillShellCommand?.({
              ...line,
              toolUseId: `skill-shell-${randomUUID()}`,
              invokedBy: 'user',
            })) ?? {},
        })
        for (const message of expanded.notices) session.notice('warning', message, 'command_expansion')
        if (expanded.stopped !== undefined)
          return {
            type: 'notice',
            level: 'warning',
            message: `/${entry.name} was not run: ${expanded.stopped}`,
          }
        const reminders: ContentBlock[] = expanded.reminders.map((text) => ({ type: 'text', text }))
        return {
          type: 'turn',
          input: {
            text: expanded.content[0].text,
            content: [...expanded.content, ...reminders],
            command: entry.name,
            turnRules: expanded.turnRules,
            ...(expanded.model !== undefined ? { modelRef: expanded.model } : {}),
          },
        }
      }
      case 'mcp': {
        const mapped = mapMcpPromptArguments(entry.prompt, args)
        if (!mapped.ok) return { type: 'notice', level: 'warning', message: mapped.notice }
        if (!this.deps.mcp)
          return { type: 'notice', level: 'warning', message: `/${entry.name}: MCP is off in this session.` }
        let body: string
        try {
          body = await this.deps.mcp.getPrompt(entry.prompt.server, entry.prompt.prompt, mapped.arguments)
        } catch (error) {
          return { type: 'notice', level: 'warning', message: `/${entry.name}: ${(error as Error).message}` }
        }
        const visible = `/${entry.name}${args.trim() !== '' ? ` ${args.trim()}` : ''}`
        return {
          type: 'turn',
          input: {
            text: visible,
            content: [
              { type: 'text', text: visible },
              { type: 'text', text: `<command name="${entry.name}">\n${body}\n</command>` },
            ],
            command: entry.name,
            turnRules: [],
          },
        }
      }
      default: {
        const unreachable: never = entry
        throw new Error(`unknown catalog entry ${JSON.stringify(unreachable)}`)
      }
    }
  }

  /** The session's gate on a call the command would make, with its granted rules for this turn. */
  #allowed(
    tool: string,
    input: Record<string, unknown>,
    granted: readonly string[],
    onConfinement?: (confinement: Confinement) => void,
  ): boolean {
    const mode = this.deps.session.state.mode
    const root = this.deps.projectRoot
    const action = actionFor(tool, input, { projectRoot: root, cwd: root, home: this.deps.home })
    this.deps.gate.setTurnRules(granted)
    try {
      const verdict = this.deps.gate.decide(tool, action, mode)
      if (verdict.decision === 'allow' && verdict.confinement !== undefined)
        onConfinement?.(verdict.confinement)
      return verdict.decision === 'allow'
    } finally {
      this.deps.gate.setTurnRules([])
    }
  }
}
