import type { EnvironmentSnapshot } from '@z-engine/context'
import { createAgentMcp } from '../mcp/agent-mcp.js'
import { createOrchestration, type Orchestration } from '../orchestration/create-orchestration.js'
import type { SessionCore } from '../session/session-core.js'
import type { AssembleInput } from './assemble-input.js'
import { serverConfiner } from './server-confiner.js'
import type { SessionGuard } from './session-guard.js'
import type { Notify } from './session-notices.js'
import type { ToolServices } from './session-tool-services.js'
import type { SessionTools } from './session-tools.js'
import type { SessionWorkspace } from './session-workspace.js'

/**
 * Subagents and agent jobs (spec 003): the Agent tool is offered only when nesting is allowed, and
 * background agents join the shell jobs in one job list.
 */
export function createSessionOrchestration(
  input: AssembleInput,
  core: SessionCore,
  parts: {
    guard: SessionGuard
    tools: ToolServices
    workspace: SessionWorkspace
    environment: EnvironmentSnapshot
    /** The offered tools, read at each agent start (built after the orchestration). */
    sessionTools: () => SessionTools
    notice: Notify
  },
): Orchestration {
  const { projectRoot, env } = input
  const settings = input.loaded.settings
  const { tools, workspace, notice } = parts
  const { ports, mcp, toolContext } = tools
  const orchestration = createOrchestration({
    session: core,
    settings,
    projectRoot,
    definitions: () => workspace.agents.definitions,
    tools: () => parts.sessionTools().current(),
    agentMcp: (definition) =>
      createAgentMcp(definition, {
        servers: workspace.loaded.settings.mcp.servers,
        sessionServers: mcp.servers().map((server) => server.name),
        trusted: workspace.trusted,
        projectRoot,
        env,
        childEnv: toolContext.env,
        // An agent's own servers are confined like the session's (issue 34).
        confine: serverConfiner(parts.guard.confinement, 'mcp'),
        notice: (level, message) => notice(level, message, 'mcp'),
      }),
    environment: parts.environment,
    ports,
    transcript: {
      replay: async (agentId) => {
        const replayed = await input.store.replayAgent(input.sessionId, agentId)
        return replayed.ok ? replayed.value.snapshot.workingSet : undefined
      },
      agents: async () => {
        const replayed = await input.store.replay(input.sessionId)
        return replayed.ok ? replayed.value.snapshot.agents : []
      },
    },
    git: { env },
    shellJobs: tools.jobs,
  })
  ports.jobs = orchestration.jobs
  if (settings.agents.max_depth > 0) ports.agents = orchestration.agents
  return orchestration
}
