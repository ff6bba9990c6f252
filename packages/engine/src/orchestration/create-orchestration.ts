import { pruneAgentWorktrees } from '@z-engine/host'
import { reminderText } from '@z-engine/prompts'
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
  // Git forgets worktrees whose folders are gone; pending ones stay for apply or discard.
  void pruneAgentWorktrees(deps.projectRoot, deps.git)
  const notice = (level: 'info' | 'warning', message: string) => deps.session.notice(level, message, 'agent')
  return {
    orchestrator,
    agents: orchestrator.mainPort(),
    jobs: mergeJobPorts(deps.shellJobs, orchestrator.jobs),
    agentChanges: {
      apply: async (agentId) => {
        const applied = await orchestrator.applyChanges(agentId)
        if (applied.ok) {
          notice('info', `Applied agent ${agentId}'s changes (${applied.changedFiles.length} file(s)).`)
          // Applied from the GUI, the merge is a change the model did not make: it hears of it next.
          if (applied.changedFiles.length > 0)
            deps.session.state.reminders.push(
              reminderText('filesChanged', { files: applied.changedFiles.join('\n') }),
            )
        } else
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
