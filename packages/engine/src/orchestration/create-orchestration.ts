import type { AgentPort, JobPort } from '@z-engine/tools'
import { mergeJobPorts } from './agent-jobs.js'
import { Orchestrator, type OrchestratorDeps } from './orchestrator.js'

/** What a session gets from orchestration: its AgentPort, the merged JobPort and the GUI's apply/discard. */
export interface Orchestration {
  orchestrator: Orchestrator
  agents: AgentPort
  /** Background shells and background agents as one list. */
  jobs: JobPort
  /** The `applyAgentChanges` / `discardAgentChanges` commands; outcomes are notices and `agentUpdated`. */
  agentChanges: { apply(agentId: string): Promise<void>; discard(agentId: string): Promise<void> }
  shutdown(): Promise<void>
}

/** Builds a session's orchestration over its shell jobs. */
export function createOrchestration(deps: OrchestratorDeps & { shellJobs: JobPort }): Orchestration {
  const orchestrator = new Orchestrator(deps)
  const notice = (level: 'info' | 'warning', message: string) =>
    deps.session().notice(level, message, 'agent')
  return {
    orchestrator,
    agents: orchestrator.mainPort(),
    jobs: mergeJobPorts(deps.shellJobs, orchestrator.jobs),
    agentChanges: {
      apply: async (agentId) => {
        const applied = await orchestrator.applyChanges(agentId)
        if (applied.ok)
          notice('info', `Applied agent ${agentId}'s changes (${applied.changedFiles.length} file(s)).`)
        else
          notice(
            'warning',
            `Could not apply agent ${agentId}'s changes: ${applied.message}${applied.conflicts.length > 0 ? ` (${applied.conflicts.join(', ')})` : ''}.`,
          )
      },
      discard: async (agentId) => {
        const discarded = await orchestrator.discardChanges(agentId)
        if (discarded.ok) notice('info', `Discarded agent ${agentId}'s worktree.`)
        else notice('warning', `Could not discard agent ${agentId}'s changes: ${discarded.message}.`)
      },
    },
    shutdown: () => orchestrator.shutdown(),
  }
}
