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
 * How a session removes an agent's worktree: its own with git (folder and branch); one a
 * WorktreeCreate hook made through the WorktreeRemove hooks, and, with none configured, not at all
 * (the engine does not delete a folder it did not make).
 */
export function worktreeRemover(projectRoot: string, git: WorktreeGitOptions, hooks: HookPort): RemoveWorktree {
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
