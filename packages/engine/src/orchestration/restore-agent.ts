import { openAgentWorktree, type WorktreeGitOptions } from '@z-engine/host'
import type { AgentInfo, Message, Settings } from '@z-engine/protocol'
import type { SessionState } from '../session/state.js'
import type { AgentDefinition } from '../workspace/definitions/types.js'
import type { AgentEntry } from './agent-entry.js'
import { agentModelPinned, agentModelRef } from './agent-model.js'

/** What restoring an agent of an earlier run of the chat reads. */
export interface RestoreDeps {
  projectRoot: string
  settings: Settings
  git: WorktreeGitOptions
  definitions(): readonly AgentDefinition[]
  transcript: { replay(agentId: string): Promise<Message[] | undefined> }
}

/**
 * Rebuilds an agent from its last `agentUpdated` record and its transcript (a reopened chat), so a
 * pending worktree can still be applied or discarded and the agent resumed. Undefined when its
 * type is no longer defined.
 */
export async function restoreAgent(
  info: AgentInfo,
  deps: RestoreDeps,
  state: SessionState,
): Promise<AgentEntry | undefined> {
  const definition = deps.definitions().find((candidate) => candidate.name === info.agentType)
  if (!definition) return undefined
  const recorded = info.worktree
  const where =
    recorded.type === 'active' || recorded.type === 'pending' || recorded.type === 'conflicted'
      ? recorded
      : undefined
  const worktree =
    where?.path !== undefined && where.branch !== undefined
      ? await openAgentWorktree(deps.projectRoot, { path: where.path, branch: where.branch }, deps.git)
      : undefined
  const unfinished = info.status === 'running' || info.status === 'pending' || info.status === 'waiting'
  return {
    info: {
      ...info,
      // It was running when the chat closed: it did not finish. A worktree that is gone was discarded.
      ...(unfinished ? { status: 'cancelled' as const } : {}),
      ...(worktree && !worktree.ok ? { worktree: { type: 'discarded' as const } } : {}),
    },
    definition,
    caller: {
      depth: info.depth - 1,
      ...(info.parentId !== undefined ? { agentId: info.parentId } : {}),
      model: () => state.modelRef,
      modelPinned: () => state.modelPinned,
      mode: () => state.mode,
    },
    modelPinned: agentModelPinned(definition.model, {
      callerPinned: state.modelPinned,
      sessionPinned: state.modelPinned,
      settings: deps.settings,
    }),
    modelRef: agentModelRef(undefined, definition.model, {
      callerModel: state.modelRef,
      sessionModel: state.modelRef,
      settings: deps.settings,
    }),
    messages: (await deps.transcript.replay(info.id)) ?? [],
    followUps: [],
    root: worktree?.ok ? worktree.value.root : deps.projectRoot,
    latestText: info.result ?? '',
    ...(worktree?.ok ? { worktree: worktree.value } : {}),
  }
}
