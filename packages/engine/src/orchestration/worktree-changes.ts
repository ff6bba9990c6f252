import {
  agentBranchDiff,
  commitAgentWorktree,
  mergeAgentBranch,
  type WorktreeGitOptions,
} from '@z-engine/host'
import type { AgentInfo, WorktreeState } from '@z-engine/protocol'
import type { AgentEntry } from './agent-entry.js'
import type { RemoveWorktree } from './agent-worktree.js'

/** How applying a worktree agent's changes went (the AgentPort's `applyChanges` answer). */
export type ApplyOutcome =
  | { ok: true; changedFiles: string[] }
  | { ok: false; conflicts: string[]; message: string }

/**
 * Ends a worktree agent's run: commits what it left on its branch and summarizes it (`pending`), or
 * removes the worktree and branch when it changed nothing (`empty`). A git failure keeps the
 * worktree (`active`) and is returned as a message for the agent's result.
 */
export async function finishWorktree(
  entry: AgentEntry,
  git: WorktreeGitOptions,
  remove: RemoveWorktree,
): Promise<{ state: WorktreeState; problem?: string }> {
  const worktree = entry.worktree
  if (!worktree) return { state: { type: 'none' } }
  const committed = await commitAgentWorktree(
    worktree,
    `z-engine agent ${entry.info.id}: ${entry.info.description}`,
    git,
  )
  if (!committed.ok) {
    return {
      state: { type: 'active', path: worktree.path, branch: worktree.branch },
      problem: `Its worktree changes could not be committed: ${committed.error.message}`,
    }
  }
  switch (committed.value.type) {
    case 'empty': {
      const removed = await remove(worktree)
      return removed.ok
        ? { state: { type: 'empty' } }
        : {
            state: { type: 'empty' },
            problem: `Its empty worktree could not be removed: ${removed.message}`,
          }
    }
    case 'pending': {
      const { changedFiles, summary } = committed.value
      return {
        state: {
          type: 'pending',
          path: worktree.path,
          branch: worktree.branch,
          summary: `${summary} (${changedFiles.join(', ')})`,
          changedFiles,
        },
      }
    }
    default: {
      const never: never = committed.value
      return never
    }
  }
}

/**
 * Three-way merges a pending (or previously conflicted) worktree into the project. Applied: the
 * worktree and branch are removed. Conflicted: nothing in the project changes and the worktree stays.
 */
export async function applyWorktree(
  entry: AgentEntry,
  { projectRoot, git }: { projectRoot: string; git: WorktreeGitOptions },
  remove: RemoveWorktree,
): Promise<{ outcome: ApplyOutcome; state?: WorktreeState }> {
  const worktree = entry.worktree
  const current = entry.info.worktree
  if (!worktree || (current.type !== 'pending' && current.type !== 'conflicted')) {
    return {
      outcome: {
        ok: false,
        conflicts: [],
        message: `agent ${entry.info.id} has no pending worktree changes (its worktree is ${current.type})`,
      },
    }
  }
  // Changes made in the worktree after the run (conflicts resolved by hand) are committed first.
  if (current.type === 'conflicted') {
    const committed = await commitAgentWorktree(worktree, `z-engine agent ${entry.info.id}: resolved`, git)
    if (!committed.ok) return { outcome: { ok: false, conflicts: [], message: committed.error.message } }
  }
  const merged = await mergeAgentBranch(projectRoot, worktree.branch, git)
  if (!merged.ok) return { outcome: { ok: false, conflicts: [], message: merged.error.message } }
  switch (merged.value.type) {
    case 'conflicted': {
      const { conflicts } = merged.value
      return {
        outcome: { ok: false, conflicts, message: 'its changes conflict with the project' },
        state: { type: 'conflicted', conflicts, path: worktree.path, branch: worktree.branch },
      }
    }
    case 'applied': {
      const { changedFiles } = merged.value
      // The changes are in the project now; a failed cleanup only leaves a stale folder behind.
      await remove(worktree)
      return { outcome: { ok: true, changedFiles }, state: { type: 'applied', changedFiles } }
    }
    default: {
      const never: never = merged.value
      return never
    }
  }
}

/** Removes a worktree agent's worktree and branch, whatever state it is in. */
export async function discardWorktree(
  entry: AgentEntry,
  remove: RemoveWorktree,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const worktree = entry.worktree
  if (!worktree) return { ok: false, message: `agent ${entry.info.id} has no worktree` }
  return remove(worktree)
}

/** The worktree states whose changes are still in a worktree (nothing applied or removed yet). */
const HOLDS_CHANGES: ReadonlySet<WorktreeState['type']> = new Set(['active', 'pending', 'conflicted'])

/** The agents (later records of an id win) whose worktree still holds changes. */
export function waitingWorktrees(agents: readonly AgentInfo[]): AgentInfo[] {
  const byId = new Map(agents.map((info) => [info.id, info]))
  return [...byId.values()].filter((info) => HOLDS_CHANGES.has(info.worktree.type))
}

/** What a worktree agent's branch changed since its worktree started, as a unified diff. */
export async function worktreeDiff(
  agentId: string,
  entry: AgentEntry | undefined,
  projectRoot: string,
  git: WorktreeGitOptions,
): Promise<{ ok: true; diff: string } | { ok: false; message: string }> {
  if (!entry) return { ok: false, message: `there is no agent '${agentId}' in this chat` }
  if (!entry.worktree) return { ok: false, message: `agent ${agentId} has no worktree left to show` }
  const diff = await agentBranchDiff(projectRoot, entry.worktree, git)
  return diff.ok ? { ok: true, diff: diff.value } : { ok: false, message: diff.error.message }
}
