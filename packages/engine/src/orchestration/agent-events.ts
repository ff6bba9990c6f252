import type { AgentInfo } from '@z-engine/protocol'
import type { SessionCore } from '../session/session-core.js'

/**
 * Commits an agent's info as `agentUpdated` (journaled in the main log, so a resumed chat shows
 * every agent as it last was: lifecycle, worktree state, usage so far).
 */
export async function publishAgent(session: SessionCore, info: AgentInfo): Promise<void> {
  await session.commit({ type: 'agentUpdated', agent: info })
}
