import type { AgentInfo } from '@z-engine/protocol'
import type { SessionCore } from '../session/session-core.js'

/**
 * Publishes an agent's info as `agentUpdated`. Lifecycle changes (start, finish, worktree state)
 * are journaled in the main log so a resumed chat shows them; progress updates only go out live.
 */
export async function publishAgent(session: SessionCore, info: AgentInfo, journal: boolean): Promise<void> {
  const event = { type: 'agentUpdated' as const, agent: info }
  await session.commit(event, journal ? event : undefined)
}
