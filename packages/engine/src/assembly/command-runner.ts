import { randomUUID } from 'node:crypto'
import { contextBreakdown } from '@z-engine/context'
import type { CommandSandbox, ProcessScope } from '@z-engine/host'
import { type Confinement, resolvePath } from '@z-engine/policy'
import type { Settings } from '@z-engine/protocol'
import { type ContentBlock, parsePermissionMode, todoMarkdown } from '@z-engine/protocol'
import { actionFor, grantOf, type JobPort, type Tool } from '@z-engine/tools'
import { renderDecisions } from '../decisions/render-traces.js'
import type { SessionGate } from '../gate/session-gate.js'
import type { McpManager } from '../mcp/mcp-manager.js'
import { renderMcpStatus } from '../mcp/render-status.js'
import { toolSpecsOf } from '../run/tool-specs.js'
import { createInteractionPort } from '../session/interaction-port.js'
import type { SessionCore } from '../session/session-core.js'
import type { CommandAction, TurnInput } from '../session/session-types.js'
import type { SessionVerification } from '../verification/session-verification.js'
import {
  buildCommandCatalog,
  type CatalogEntry,
  type CatalogSources,
  type CommandCatalog,
  resolveCommand,
} from '../workspace/commands/catalog.js'
import type { EngineBuiltinName } from '../workspace/commands/engine-builtins.js'
import { expandCommand } from '../workspace/commands/expand.js'
import { mapMcpPromptArguments } from '../workspace/commands/mcp-prompt-arguments.js'
import { builtinCommandDefinitions, loadCommandDefinitions } from '../workspace/definitions/load.js'
import type { AgentDefinition, PluginDefinitionSource } from '../workspace/definitions/types.js'
import { loadInstructions } from '../workspace/instructions/instructions-load.js'
import { appendMemoryNote, type MemoryTarget, memoryFile } from '../workspace/instructions/memory.js'
import { persistAdditionalDirectory } from '../workspace/settings/persist.js'
import { renderCostReport } from './cost-report.js'
import { jobsCommand, type WorktreeAccess, worktreesCommand } from './job-commands.js'
import type { SessionModels } from './model-port.js'
import { runPluginCommand } from './plugin-command.js'
import { EMBEDDED_SHELL_TIMEOUT_MS } from './standalone-expansion.js'
import type { SessionSystemPrompt } from './system-prompt.js'
import { runUserShell } from './user-shell.js'

/** How long a prompt command's embedded `!` line may run. */

/** What the command runner reaches. */
export interface CommandRunnerDeps {
  session: SessionCore
  /** The main agent's toolset (for `/context` and `/status`). */
  tools: readonly Tool[]
  settings: Settings
  projectRoot: string
  home: string
  configDir: string
  /** Read the user's own files (false in isolated mode). */
  userFiles?: boolean
  /** Enabled plugins' commands and skills (`/plugin:command`). */
  plugins?: readonly PluginDefinitionSource[]
  /** The engine's data folder (installed plugins, for `/plugin`). */
  dataDir: string
  /** The settings in effect now (after reloads), which `/plugin` reads for marketplaces and plugins. */
  pluginSettings?: Settings
  /** Reloads the session (what `/plugin` installed or toggled becomes live); absent: nothing reloads. */
  reload?: () => Promise<unknown>
  trusted: boolean
  gate: SessionGate
  models: SessionModels
  system: SessionSystemPrompt
  agents: readonly AgentDefinition[]
  /** The environment `!` lines start from (filtered by `[shell.env]`). */
  baseEnv: Readonly<Record<string, string | undefined>>
  /** The session's MCP servers (prompts as commands, `/mcp`). */
  mcp?: McpManager
  /** Confines a command's embedded shell lines (absent: they run unconfined). */
  sandbox?: CommandSandbox
  /** The session whose close kills what embedded lines left running. */
  scope?: ProcessScope
  /** The session's checks and records (for `/status`). */
  verification?: SessionVerification
  /** Background shells and agents (`/jobs`). */
  jobs?: JobPort
  /** Worktree agents' waiting changes (`/worktrees`). */
  worktrees?: WorktreeAccess
}

const tokens = (count: number) => count.toLocaleString('en-US')

/** The files a `#` note may go to, as the question offers them. */
const MEMORY_CHOICES: ReadonlyArray<{ target: MemoryTarget; label: string; description: string }> = [
  { target: 'project', label: 'Project', description: "This project's instructions, shared with the team" },
  { target: 'local', label: 'Project (local)', description: 'Your notes for this checkout only' },
  { target: 'user', label: 'User', description: 'Your own instructions, for every project' },
]

/** `/remember [--project|--local|--user|--ask] <note>`: where the note goes (project by default). */
export function parseRememberArgs(
  args: string,
): { ok: true; target: MemoryTarget | 'ask'; note: string } | { ok: false; error: string } {
  const match = /^--(\S+)\s*([\s\S]*)$/.exec(args.trim())
  if (match === null) return { ok: true, target: 'project', note: args.trim() }
  const flag = match[1]!
  if (flag !== 'project' && flag !== 'local' && flag !== 'user' && flag !== 'ask')
    return {
      ok: false,
      error: `/remember: unknown option --${flag}; use --project, --local, --user or --ask before the note.`,
    }
  return { ok: true, target: flag, note: match[2]!.trim() }
}

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

  /** `/status` lines on verification: the mode, the checks, the latest record. */
  async #verificationStatus(): Promise<string[]> {
    const verification = this.deps.verification
    if (verification === undefined) return []
    const mode = this.deps.settings.verification.mode
    const checks = mode === 'off' ? [] : await verification.list()
    const last = verification.records().at(-1)
    const tests = last?.tests ? ` (${last.tests.passed} passed, ${last.tests.failed} failed)` : ''
    return [
      `**Verification:** ${mode}${checks.length > 0 ? `; checks ${checks.map((check) => `${check.id} (${check.command})`).join(', ')}` : mode === 'off' ? '' : '; no checks found'}`,
      ...(last !== undefined
        ? [`**Last check:** ${last.checkId} ${last.passed ? 'passed' : 'failed'}${tests} at ${last.at}`]
        : []),
    ]
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
        return this.#builtin(entry.name, args.trim())
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

  /** Appends the note to the target's instruction file and reloads the instructions. */
  async #remember(target: MemoryTarget, note: string): Promise<CommandAction> {
    const written = await appendMemoryNote({
      target,
      projectRoot: this.deps.projectRoot,
      home: this.deps.home,
      configDir: this.deps.configDir,
      compatClaude: this.deps.settings.compat.claude,
      note,
    })
    if (!written.ok) return { type: 'notice', level: 'warning', message: written.error }
    const instructions = await loadInstructions({
      projectRoot: this.deps.projectRoot,
      home: this.deps.home,
      configDir: this.deps.configDir,
      compatClaude: this.deps.settings.compat.claude,
      ...(this.deps.userFiles === false ? { userFiles: false } : {}),
      isReadDenied: (path) => this.deps.gate.readDenied(path),
    })
    this.deps.system.invalidate({ instructions })
    return { type: 'output', name: 'remember', markdown: `Noted in ${written.path}.` }
  }

  /** Asks where a `#` note goes: the project's, this checkout's or the user's instruction file. */
  async #askMemoryTarget(note: string, signal: AbortSignal): Promise<MemoryTarget | undefined> {
    const { projectRoot, home, configDir } = this.deps
    const options = MEMORY_CHOICES.map((choice) => ({
      label: choice.label,
      description: `${choice.description} (${memoryFile(choice.target, projectRoot, home, configDir, this.deps.settings.compat.claude)})`,
    }))
    const answers = await createInteractionPort(this.deps.session, { toolUseId: 'remember' }).ask(
      [
        {
          question: `Where should this note be saved? "${note}"`,
          header: 'Memory',
          options,
          multiSelect: false,
          // A closed choice: where the note goes / whether to install; nothing else answers it.
          freeText: false,
        },
      ],
      signal,
    )
    const label = answers?.[0]?.[0]
    return MEMORY_CHOICES.find((choice) => choice.label === label)?.target
  }

  /** Asks the user a yes/no question with details (a plugin's consent); false unless "Yes". */
  async #confirm(question: string, details: string, signal: AbortSignal): Promise<boolean> {
    const answers = await createInteractionPort(this.deps.session, { toolUseId: 'plugin' }).ask(
      [
        {
          question: `${question}\n\n${details}`,
          header: 'Install',
          options: [
            { label: 'Yes', description: 'Install and enable it now' },
            { label: 'No', description: 'Install nothing' },
          ],
          multiSelect: false,
          // A closed choice: where the note goes / whether to install; nothing else answers it.
          freeText: false,
        },
      ],
      signal,
    )
    return answers?.[0]?.[0] === 'Yes'
  }

  async #builtin(name: EngineBuiltinName, args: string): Promise<CommandAction> {
    const session = this.deps.session
    const { state } = session
    const output = (markdown: string): CommandAction => ({ type: 'output', name, markdown })
    switch (name) {
      case 'compact':
        return { type: 'compact', ...(args !== '' ? { focus: args } : {}) }
      case 'context': {
        const info = this.deps.models.info(state.modelRef)
        const breakdown = contextBreakdown({
          windowTokens: info.contextWindow,
          system: await this.deps.system.layers(),
          tools: toolSpecsOf(this.deps.tools),
          messages: state.workingSet,
        })
        const rows = breakdown.layers.map((layer) => `| ${layer.layer} | ${tokens(layer.tokens)} |`)
        return output(
          [
            `**Context:** ${tokens(breakdown.usedTokens)} of ${tokens(breakdown.windowTokens)} tokens (${breakdown.percent}%)`,
            '',
            '| layer | tokens |',
            '| --- | --- |',
            ...rows,
          ].join('\n'),
        )
      }
      case 'cost':
        return output(renderCostReport(state.usage, state.cost))
      case 'status':
        return output(
          [
            `**Model:** ${state.modelRef}`,
            `**Mode:** ${state.mode}`,
            `**Project:** ${this.deps.projectRoot}${this.deps.trusted ? '' : ' (not trusted)'}`,
            // As code: `mcp__fs__read_file` and `my_tool` would render as emphasis.
            `**Tools:** ${this.deps.tools.map((tool) => `\`${tool.name}\``).join(', ')}`,
            `**Instructions:** ${this.deps.system.instructions.files.map((file) => `\`${file.path}\``).join(', ') || 'none'}`,
            ...(await this.#verificationStatus()),
          ].join('\n'),
        )
      case 'remember': {
        const parsed = parseRememberArgs(args)
        if (!parsed.ok) return { type: 'notice', level: 'warning', message: parsed.error }
        const { target, note } = parsed
        if (target !== 'ask') return this.#remember(target, note)
        if (note === '')
          return {
            type: 'notice',
            level: 'warning',
            message: 'The note is empty; write what to remember after #.',
          }
        // A `# note` line in the chat: ask where it goes, as Claude Code does, then write it.
        return {
          type: 'task',
          run: async (signal) => {
            const chosen = await this.#askMemoryTarget(note, signal)
            if (chosen === undefined) return output('Not saved.')
            return this.#remember(chosen, note)
          },
        }
      }
      case 'model': {
        if (args === '') return output(`**Model:** ${state.modelRef}`)
        return { type: 'command', command: { type: 'setModel', model: args } }
      }
      case 'mode': {
        if (args === '') return output(`**Mode:** ${state.mode}`)
        const mode = parsePermissionMode(args)
        if (!mode)
          return {
            type: 'notice',
            level: 'warning',
            message: `Unknown mode '${args}'; use default, acceptEdits, plan or bypass.`,
          }
        return { type: 'command', command: { type: 'setMode', mode } }
      }
      case 'effort': {
        if (args === '') return output(`**Effort:** ${this.deps.models.effort ?? 'model default'}`)
        if (!['low', 'medium', 'high', 'max'].includes(args)) {
          return {
            type: 'notice',
            level: 'warning',
            message: `Unknown effort '${args}'; use low, medium, high or max.`,
          }
        }
        this.deps.models.effort = args as 'low' | 'medium' | 'high' | 'max'
        return output(`**Effort:** ${args} from the next request on.`)
      }
      case 'mcp': {
        const words = args.split(/\s+/).filter((word) => word !== '')
        if (words[0] === 'reconnect') {
          const name = words[1]
          if (!name || !this.deps.mcp)
            return { type: 'notice', level: 'warning', message: 'Usage: /mcp reconnect <server>' }
          const info = await this.deps.mcp.reconnect(name)
          if (!info)
            return { type: 'notice', level: 'warning', message: `There is no MCP server named ${name}.` }
          return output(renderMcpStatus([info], []))
        }
        if (words.length > 0)
          return { type: 'notice', level: 'warning', message: 'Usage: /mcp, or /mcp reconnect <server>' }
        return output(renderMcpStatus(this.deps.mcp?.servers() ?? [], this.deps.mcp?.deferred() ?? []))
      }
      case 'plugin':
        // A task: installing asks the user, and answers reach the session only outside its queue.
        return {
          type: 'task',
          run: async (signal) => {
            const result = await runPluginCommand(
              {
                paths: { dataDir: this.deps.dataDir, env: this.deps.baseEnv, cwd: this.deps.projectRoot },
                configDir: this.deps.configDir,
                settings: this.deps.pluginSettings ?? this.deps.settings,
                active: (this.deps.plugins ?? []).map((plugin) => plugin.id),
                confirm: (question, details) => this.#confirm(question, details, signal),
                reload: async () => {
                  await this.deps.reload?.()
                },
              },
              args,
            )
            return result.type === 'output'
              ? output(result.markdown)
              : { type: 'notice', level: 'warning', message: result.message }
          },
        }
      case 'todos':
        return output(
          state.todos.length === 0
            ? 'No todos.'
            : state.todos
                .map(
                  (todo) => `- ${todoMarkdown(todo)}${todo.status === 'in_progress' ? ' (in progress)' : ''}`,
                )
                .join('\n'),
        )
      case 'decisions':
        return output(renderDecisions(this.deps.session.services.decisions))
      case 'full-history':
        return { type: 'command', command: { type: 'includeFullHistory' } }
      case 'doctor':
        return output(
          [
            `**Model:** ${state.modelRef} (${this.deps.models.resolve(state.modelRef).ok ? 'ready' : 'unavailable'})`,
            `**Tools:** ${this.deps.tools.length} offered`,
            'Run `z-engine doctor` in a terminal for the full check (git, ripgrep, sandbox, language servers).',
          ].join('\n'),
        )
      case 'add-dir': {
        const words = args.split(/\s+/).filter((word) => word !== '')
        const save = words.includes('--save')
        const target = words.find((word) => word !== '--save')
        if (!target) return { type: 'notice', level: 'warning', message: 'Usage: /add-dir <path> [--save]' }
        const directory = resolvePath(this.deps.projectRoot, target, this.deps.home)
        this.deps.gate.addDirectory(directory)
        if (save) {
          const persisted = await persistAdditionalDirectory(this.deps.projectRoot, directory)
          if (!persisted.ok)
            return {
              type: 'notice',
              level: 'warning',
              message: `Added for this session; not saved: ${persisted.error}`,
            }
        }
        // Claude Code's DirectoryAdded hooks hear of it once it is added (and saved); they only inform.
        await this.deps.session.services.hooks.directoryAdded?.(directory)
        return output(
          `The agent may now work in ${directory}${save ? ' (saved to settings.local.toml)' : ''}.`,
        )
      }
      case 'jobs':
        return jobsCommand(args, this.deps.jobs)
      case 'worktrees':
        return worktreesCommand(args, this.deps.worktrees)
      case 'reload':
        // The session's own reload, as `reloadSettings` (edited agents reach the Agent tool).
        if (args !== '') return { type: 'notice', level: 'warning', message: 'Usage: /reload' }
        return { type: 'command', command: { type: 'reloadSettings' } }
      default: {
        const unreachable: never = name
        throw new Error(`unknown built-in ${String(unreachable)}`)
      }
    }
  }
}
