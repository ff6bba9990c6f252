import { buildSystem, type EnvironmentSnapshot, renderEnvironment } from '@z-engine/context'
import type { SystemSection } from '../model/types.js'
import type { AgentEntry } from './agent-entry.js'

/**
 * A subagent's system prompt: its definition's prompt as the base and the environment seen from its
 * root; a worktree agent gets a last, uncached note saying where it works (spec 003).
 */
export function subagentSystem(entry: AgentEntry, environment: EnvironmentSnapshot): SystemSection[] {
  const worktree = entry.worktree
  const note =
    worktree === undefined
      ? undefined
      : `You work in your own git worktree at ${entry.root} (branch ${worktree.branch}), not in the user's project folder. Make every change there; the user reviews them and applies them to the project after you finish. Do not commit, switch branches or touch the user's project folder.`
  return buildSystem({
    base: entry.definition.prompt,
    environment: renderEnvironment({
      ...environment,
      cwd: entry.root,
      model: entry.modelRef,
      ...(worktree !== undefined ? { gitBranch: worktree.branch } : {}),
    }),
    ...(note !== undefined ? { note } : {}),
  }).map((section) => ({ text: section.text, cacheable: section.cacheable }))
}
