import { reminderText } from '@z-engine/prompts'
import type { Ports } from '@z-engine/tools'
import { ShellJobs } from '../jobs/shell-jobs.js'
import { LspManager } from '../lsp/lsp-manager.js'
import type { McpManager } from '../mcp/mcp-manager.js'
import { createSessionMcp } from '../mcp/session-mcp.js'
import { createSideModelPort } from '../model/side-model.js'
import type { AssembleInput } from './assemble-input.js'
import type { SessionModels } from './model-port.js'
import { serverConfiner } from './server-confiner.js'
import type { SessionGuard } from './session-guard.js'
import type { Notify } from './session-notices.js'
import type { SessionWorkspace } from './session-workspace.js'
import { createToolContextFactory } from './tool-context.js'

/** Writes a long output to an artifact of the session and returns where (for a tool's spill). */
export type Spill = (content: string, hint: string) => Promise<string>

/** The services behind the tools: each call's context, background jobs, MCP and language servers. */
export interface ToolServices {
  /** The ports the tools reach; filled further as the session's other services are built. */
  ports: Ports
  spill: Spill
  toolContext: ReturnType<typeof createToolContextFactory>
  jobs: ShellJobs
  mcp: McpManager
  lsp: LspManager | undefined
}

/** Builds the tool services; a service the settings leave off (or with nothing installed) is not a port. */
export function createToolServices(
  input: AssembleInput,
  guard: SessionGuard,
  models: SessionModels,
  workspace: SessionWorkspace,
  notice: Notify,
): ToolServices {
  const { projectRoot, paths, env, state, hub } = input
  const settings = input.loaded.settings
  const { gate, sandbox, processes, confinement } = guard
  const spill: Spill = async (content, hint) => {
    const written = await input.store.writeArtifact(input.sessionId, content, 'txt')
    if (!written.ok) throw new Error(`${hint}: ${written.error.message}`)
    return written.value
  }
  const ports: Ports = {}
  // WebFetch answers its prompt with the fast model; without one it returns the page (and says so).
  const sideModel = createSideModelPort(models, settings.model.fast)
  if (sideModel !== undefined) ports.sideModel = sideModel
  const toolContext = createToolContextFactory({
    sessionId: input.sessionId,
    projectRoot,
    home: paths.home,
    settings,
    baseEnv: env,
    vision: () => models.info(state.modelRef).vision,
    additionalDirectories: () => gate.additionalDirectories,
    spill,
    ports,
    scope: processes,
    isReadDenied: (path) =>
      gate.decide('Read', { type: 'read', paths: [path] }, state.mode).decision === 'deny',
    sandbox,
  })
  const jobs = new ShellJobs({
    env: toolContext.env,
    sandbox,
    scope: processes,
    onUpdate: (job) => {
      hub.publish({ type: 'jobUpdated', job })
      if (job.status !== 'running') {
        state.reminders.push(
          reminderText('jobFinished', { jobId: job.id, description: job.description, status: job.status }),
        )
      }
    },
  })
  ports.jobs = jobs
  // MCP servers start in the background once the session is open (spec 000 "MCP and language servers").
  const mcp = createSessionMcp({
    loaded: input.loaded,
    trusted: input.trusted,
    projectRoot,
    env,
    childEnv: toolContext.env,
    ...(input.mcpServers !== undefined ? { inProcess: input.mcpServers } : {}),
    confine: serverConfiner(confinement, 'mcp'),
    hooks: {
      notice: (level, message) => notice(level, message, 'mcp'),
      remind: (text) => state.reminders.push(text),
    },
  })
  if (mcp.configured) ports.mcp = mcp
  // Language servers start lazily per file type; LSP is offered when one of them is installed.
  const lsp = settings.lsp.enabled
    ? new LspManager({
        root: projectRoot,
        settings: settings.lsp,
        env: toolContext.env,
        scope: processes,
        // Issue 34: only in a trusted workspace, and inside the session's sandbox like Bash.
        trusted: () => workspace.trusted,
        confine: serverConfiner(confinement, 'lsp'),
        notice: (level, message) => notice(level, message, 'lsp'),
      })
    : undefined
  if (lsp?.anyInstalled()) ports.lsp = lsp
  return { ports, spill, toolContext, jobs, mcp, lsp }
}
