import { reminderText } from '@z-engine/prompts'
import { attachResourceMentions } from '../mcp/resource-mentions.js'
import type { HookPort, SessionLogPort, SessionServices } from '../session/services.js'
import { agentMentionReminders } from '../workspace/commands/agent-mentions.js'
import type { AssembleInput } from './assemble-input.js'
import { createCheckpointPort } from './checkpoint-port.js'
import { ContextTracker, touchedPaths } from './context-tracker.js'
import type { SessionModels } from './model-port.js'
import type { SessionChecks } from './session-checks.js'
import type { SessionCompaction } from './session-compaction.js'
import type { SessionGuard } from './session-guard.js'
import type { Notify } from './session-notices.js'
import type { ToolServices } from './session-tool-services.js'
import type { SessionWorkspace } from './session-workspace.js'
import type { SessionSystemPrompt } from './system-prompt.js'

/** What {@link buildSessionServices} puts together. */
export interface SessionServiceParts {
  input: AssembleInput
  log: SessionLogPort
  guard: SessionGuard
  hooks: HookPort
  models: SessionModels
  tools: ToolServices
  system: SessionSystemPrompt
  contextTracker: ContextTracker
  workspace: SessionWorkspace
  checks: SessionChecks
  /** The session's compaction, built later from these services (read at each call). */
  compaction: () => SessionCompaction
  notice: Notify
}

/** Everything a session needs from outside (`SessionServices`), from the session's built services. */
export function buildSessionServices(parts: SessionServiceParts): SessionServices {
  const { input, guard, models, tools, workspace, checks } = parts
  const { projectRoot, paths, env, state } = input
  const settings = input.loaded.settings
  const { gate } = guard
  const { ports, toolContext, mcp } = tools
  const { verification } = checks
  return {
    log: parts.log,
    gate,
    hooks: parts.hooks,
    checkpoints: createCheckpointPort({
      dataDir: paths.dataDir,
      projectRoot,
      env,
      newId: input.newId,
      onNotice: parts.notice,
      home: paths.home,
      maxFiles: settings.checkpoints.max_files,
      maxMb: settings.checkpoints.max_mb,
      readDenied: (path) => gate.readDenied(path),
      denyRules: () => gate.hasDenyRules(),
    }),
    models,
    toolCtx: (params) => toolContext.build(params),
    system: () => parts.system.sections(),
    // A prompt's `@server:uri` mentions attach MCP resources; `@agent-<name>` of a known agent type
    // adds a reminder to use that agent (spec 000 "Commands", for ordinary messages too).
    promptAttachments: async (text: string, signal: AbortSignal) => {
      const attached = mcp.configured
        ? await attachResourceMentions(
            text,
            {
              servers: () => mcp.servers().map((server) => server.name),
              denied: (server) =>
                gate.decide(
                  'ReadMcpResource',
                  { type: 'mcpCall', server, tool: 'ReadMcpResource', readOnly: true, resource: true },
                  state.mode,
                ).decision === 'deny',
              read: async (server, uri, readSignal) => {
                await mcp.started(server)
                return mcp.readResource(server, uri, readSignal)
              },
            },
            signal,
          )
        : { blocks: [], notices: [] }
      const types = ports.agents?.catalog().map((type) => type.name) ?? []
      const reminders = agentMentionReminders(text, types).map((reminder) => ({
        type: 'text' as const,
        text: reminder,
      }))
      return { blocks: [...attached.blocks, ...reminders], notices: attached.notices }
    },
    turnReminders: async () => {
      const changed = await toolContext.changedSinceRead('main')
      return changed.length === 0
        ? []
        : [reminderText('filesChanged', { files: changed.map((path) => `- ${path}`).join('\n') })]
    },
    // Bound lazily: the session's compaction is built further down from these services.
    agentRelief: (target) => parts.compaction().agentRelief(target),
    agentContext: (root) => {
      const tracker = new ContextTracker({
        root,
        home: paths.home,
        compatClaude: settings.compat.claude,
        isReadDenied: (path) => gate.readDenied(path),
        rules: workspace.rules.rules,
        repoMap: undefined,
      })
      return (calls, changedFiles, cwd) => tracker.afterBatch(touchedPaths(calls, changedFiles, cwd))
    },
    afterBatch: (calls, changedFiles, cwd) =>
      parts.contextTracker.afterBatch(touchedPaths(calls, changedFiles, cwd)),
    home: paths.home,
    costOf: (usage, modelRef) => models.costOf(usage, modelRef),
    verification: {
      mark: () => verification.mark(),
      noteChange: () => verification.noteChange(),
      badge: (mark) => verification.badge(mark),
      atStop: (mark, used, signal) => checks.atStop(mark, used, signal),
      known: () => (ports.checks === undefined ? undefined : verification.known()),
      noteShellRun: async (run) => {
        if (ports.checks !== undefined) await verification.noteShellRun(run)
      },
    },
    ...(input.canUseTool ? { canUseTool: input.canUseTool } : {}),
  }
}
