import { contextBreakdown } from '@z-engine/context'
import { resolvePath } from '@z-engine/policy'
import { parsePermissionMode, todoMarkdown } from '@z-engine/protocol'
import { renderDecisions } from '../decisions/render-traces.js'
import { renderMcpStatus } from '../mcp/render-status.js'
import { toolSpecsOf } from '../run/tool-specs.js'
import { createInteractionPort } from '../session/interaction-port.js'
import type { CommandAction } from '../session/session-types.js'
import type { EngineBuiltinName } from '../workspace/commands/engine-builtins.js'
import { persistAdditionalDirectory } from '../workspace/settings/persist.js'
import type { CommandRunnerDeps } from './command-runner-deps.js'
import { renderCostReport } from './cost-report.js'
import { jobsCommand, worktreesCommand } from './job-commands.js'
import { rememberCommand } from './memory-commands.js'
import { runPluginCommand } from './plugin-command.js'

const tokens = (count: number) => count.toLocaleString('en-US')

/**
 * Runs one of the engine's built-in `/` commands: informational ones answer as `commandOutput`
 * without the model; others become a session command, a task (when they ask the user) or a notice.
 */
export async function runBuiltin(
  name: EngineBuiltinName,
  args: string,
  deps: CommandRunnerDeps,
): Promise<CommandAction> {
  const session = deps.session
  const { state } = session
  const output = (markdown: string): CommandAction => ({ type: 'output', name, markdown })
  switch (name) {
    case 'compact':
      return { type: 'compact', ...(args !== '' ? { focus: args } : {}) }
    case 'context':
      return output(await contextOutput(deps))
    case 'cost':
      return output(renderCostReport(state.usage, state.cost))
    case 'status':
      return output(await statusOutput(deps))
    case 'remember':
      return rememberCommand(args, deps)
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
      if (args === '') return output(`**Effort:** ${deps.models.effort ?? 'model default'}`)
      if (!['low', 'medium', 'high', 'max'].includes(args)) {
        return {
          type: 'notice',
          level: 'warning',
          message: `Unknown effort '${args}'; use low, medium, high or max.`,
        }
      }
      deps.models.effort = args as 'low' | 'medium' | 'high' | 'max'
      return output(`**Effort:** ${args} from the next request on.`)
    }
    case 'mcp':
      return mcpCommand(args, deps, output)
    case 'plugin':
      // A task: installing asks the user, and answers reach the session only outside its queue.
      return {
        type: 'task',
        run: async (signal) => {
          const result = await runPluginCommand(
            {
              paths: { dataDir: deps.dataDir, env: deps.baseEnv, cwd: deps.projectRoot },
              configDir: deps.configDir,
              settings: deps.pluginSettings ?? deps.settings,
              active: (deps.plugins ?? []).map((plugin) => plugin.id),
              confirm: (question, details) => confirm(deps, question, details, signal),
              reload: async () => {
                await deps.reload?.()
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
      return output(renderDecisions(deps.session.services.decisions))
    case 'full-history':
      return { type: 'command', command: { type: 'includeFullHistory' } }
    case 'doctor':
      return output(
        [
          `**Model:** ${state.modelRef} (${deps.models.resolve(state.modelRef).ok ? 'ready' : 'unavailable'})`,
          `**Tools:** ${deps.tools.length} offered`,
          'Run `z-engine doctor` in a terminal for the full check (git, ripgrep, sandbox, language servers).',
        ].join('\n'),
      )
    case 'add-dir':
      return addDirCommand(args, deps, output)
    case 'jobs':
      return jobsCommand(args, deps.jobs)
    case 'worktrees':
      return worktreesCommand(args, deps.worktrees)
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

/** `/status` lines on verification: the mode, the checks, the latest record. */
async function verificationStatus(deps: CommandRunnerDeps): Promise<string[]> {
  const verification = deps.verification
  if (verification === undefined) return []
  const mode = deps.settings.verification.mode
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

/** Asks the user a yes/no question with details (a plugin's consent); false unless "Yes". */
async function confirm(
  deps: CommandRunnerDeps,
  question: string,
  details: string,
  signal: AbortSignal,
): Promise<boolean> {
  const answers = await createInteractionPort(deps.session, { toolUseId: 'plugin' }).ask(
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

/** `/context`: the context window's use by layer. */
async function contextOutput(deps: CommandRunnerDeps): Promise<string> {
  const { state } = deps.session
  const info = deps.models.info(state.modelRef)
  const breakdown = contextBreakdown({
    windowTokens: info.contextWindow,
    system: await deps.system.layers(),
    tools: toolSpecsOf(deps.tools),
    messages: state.workingSet,
  })
  const rows = breakdown.layers.map((layer) => `| ${layer.layer} | ${tokens(layer.tokens)} |`)
  return [
    `**Context:** ${tokens(breakdown.usedTokens)} of ${tokens(breakdown.windowTokens)} tokens (${breakdown.percent}%)`,
    '',
    '| layer | tokens |',
    '| --- | --- |',
    ...rows,
  ].join('\n')
}

/** `/status`: model, mode, project, tools, instructions and verification. */
async function statusOutput(deps: CommandRunnerDeps): Promise<string> {
  const { state } = deps.session
  return [
    `**Model:** ${state.modelRef}`,
    `**Mode:** ${state.mode}`,
    `**Project:** ${deps.projectRoot}${deps.trusted ? '' : ' (not trusted)'}`,
    // As code: `mcp__fs__read_file` and `my_tool` would render as emphasis.
    `**Tools:** ${deps.tools.map((tool) => `\`${tool.name}\``).join(', ')}`,
    `**Instructions:** ${deps.system.instructions.files.map((file) => `\`${file.path}\``).join(', ') || 'none'}`,
    ...(await verificationStatus(deps)),
  ].join('\n')
}

/** `/mcp` (the servers' state) and `/mcp reconnect <server>`. */
async function mcpCommand(
  args: string,
  deps: CommandRunnerDeps,
  output: (markdown: string) => CommandAction,
): Promise<CommandAction> {
  const words = args.split(/\s+/).filter((word) => word !== '')
  if (words[0] === 'reconnect') {
    const name = words[1]
    if (!name || !deps.mcp)
      return { type: 'notice', level: 'warning', message: 'Usage: /mcp reconnect <server>' }
    const info = await deps.mcp.reconnect(name)
    if (!info) return { type: 'notice', level: 'warning', message: `There is no MCP server named ${name}.` }
    return output(renderMcpStatus([info], []))
  }
  if (words.length > 0)
    return { type: 'notice', level: 'warning', message: 'Usage: /mcp, or /mcp reconnect <server>' }
  return output(renderMcpStatus(deps.mcp?.servers() ?? [], deps.mcp?.deferred() ?? []))
}

/** `/add-dir <path> [--save]`: the agent may work there (saved to settings.local.toml with --save). */
async function addDirCommand(
  args: string,
  deps: CommandRunnerDeps,
  output: (markdown: string) => CommandAction,
): Promise<CommandAction> {
  const words = args.split(/\s+/).filter((word) => word !== '')
  const save = words.includes('--save')
  const target = words.find((word) => word !== '--save')
  if (!target) return { type: 'notice', level: 'warning', message: 'Usage: /add-dir <path> [--save]' }
  const directory = resolvePath(deps.projectRoot, target, deps.home)
  deps.gate.addDirectory(directory)
  if (save) {
    const persisted = await persistAdditionalDirectory(deps.projectRoot, directory)
    if (!persisted.ok)
      return {
        type: 'notice',
        level: 'warning',
        message: `Added for this session; not saved: ${persisted.error}`,
      }
  }
  // Claude Code's DirectoryAdded hooks hear of it once it is added (and saved); they only inform.
  await deps.session.services.hooks.directoryAdded?.(directory)
  return output(`The agent may now work in ${directory}${save ? ' (saved to settings.local.toml)' : ''}.`)
}
