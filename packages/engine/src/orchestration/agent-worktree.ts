import { join, relative, sep } from 'node:path'
import {
  AGENT_WORKTREES_DIR,
  type AgentWorktree,
  adoptAgentWorktree,
  createAgentWorktree,
  removeAgentWorktree,
  type WorktreeGitOptions,
  type WorktreeResult,
} from '@z-engine/host'
import type { HookPort } from '../session/services.js'
import type { SessionCore } from '../session/session-core.js'

/** Removes an agent's worktree (and, for the engine's own, its branch). */
export type RemoveWorktree = (
  worktree: Pick<AgentWorktree, 'path' | 'branch'>,
) => Promise<{ ok: true } | { ok: false; message: string }>

/** Whether the engine made this worktree itself (under `.z-engine/worktrees`), not a WorktreeCreate hook. */
function ownWorktree(projectRoot: string, path: string): boolean {
  const inside = relative(join(projectRoot, AGENT_WORKTREES_DIR), path)
  return inside !== '' && inside !== '..' && !inside.startsWith(`..${sep}`)
}

/**
 * A worktree-isolated agent's worktree: when WorktreeCreate hooks are configured they make it (as in
 * Claude Code) and the folder they print is taken if it is a worktree of the project on its own
 * branch; else the engine's own `git worktree add`. A failing hook fails the launch with its output.
 */
export async function makeAgentWorktree(
  projectRoot: string,
  agentId: string,
  git: WorktreeGitOptions,
  hooks: HookPort,
): Promise<WorktreeResult<AgentWorktree>> {
  const made = (await hooks.worktreeCreate?.(agentId)) ?? { type: 'none' as const }
  switch (made.type) {
    case 'none':
      return createAgentWorktree(projectRoot, agentId, git)
    case 'failed':
      return { ok: false, error: { code: 'gitFailed', message: made.message } }
    case 'created': {
      const adopted = await adoptAgentWorktree(projectRoot, made.path, git)
      // A folder the agent cannot use is handed back to the hooks that clean up after them.
      if (!adopted.ok) await hooks.worktreeRemove?.(made.path)
      return adopted
    }
    default: {
      const never: never = made
      return never
    }
  }
}

/**
 * A new isolated agent's worktree; undefined outside a git repository, where (spec 003) the agent
 * works in the shared folder and a notice says why. Throws what fails the launch (a failing hook).
 */
export async function isolatedWorktree(
  deps: { projectRoot: string; git: WorktreeGitOptions },
  session: Pick<SessionCore, 'notice' | 'services'>,
  agent: { id: string; name: string },
): Promise<AgentWorktree | undefined> {
  const worktree = await makeAgentWorktree(deps.projectRoot, agent.id, deps.git, session.services.hooks)
  if (worktree.ok) return worktree.value
  if (worktree.error.code !== 'notGitRepository') throw new Error(worktree.error.message)
  session.notice(
    'warning',
    `Agent ${agent.id} (${agent.name}) works in the shared project folder: worktree isolation needs a git repository (${worktree.error.message})`,
    'agent_worktree_unavailable',
  )
  return undefined
}

/**
 * How a session removes an agent's worktree: its own with git (folder and branch); one a
 * WorktreeCreate hook made through the WorktreeRemove hooks, and, with none configured, not at all
 * (the engine does not delete a folder it did not make).
 */
export function worktreeRemover(
  projectRoot: string,
  git: WorktreeGitOptions,
  hooks: HookPort,
): RemoveWorktree {
  return async (worktree) => {
    if (ownWorktree(projectRoot, worktree.path)) {
      const removed = await removeAgentWorktree(projectRoot, worktree, git)
      return removed.ok ? { ok: true } : { ok: false, message: removed.error.message }
    }
    const removed = (await hooks.worktreeRemove?.(worktree.path)) ?? { type: 'none' as const }
    switch (removed.type) {
      case 'removed':
        return { ok: true }
      case 'failed':
        return { ok: false, message: removed.message }
      case 'none':
        return {
          ok: false,
          message: `a WorktreeCreate hook made ${worktree.path} and no WorktreeRemove hook is configured, so it stays; remove it (and its branch ${worktree.branch}) yourself, or configure a WorktreeRemove hook`,
        }
      default: {
        const never: never = removed
        return never
      }
    }
  }
}
