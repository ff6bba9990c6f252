import type { Cost, Usage } from './usage.js'

/** Where an agent is in its life. */
export type AgentStatus = 'pending' | 'running' | 'waiting' | 'done' | 'failed' | 'cancelled'

/** A worktree agent's changes, after it ends. */
export type WorktreeState =
  | { type: 'none' }
  | { type: 'active'; path: string; branch: string }
  | { type: 'ready'; path: string; branch: string; summary: string; changedFiles: string[] }
  | { type: 'applied'; changedFiles: string[] }
  | { type: 'conflicted'; conflicts: string[] }
  | { type: 'discarded' }

/** What the GUI shows of one subagent. */
export interface AgentInfo {
  id: string
  parentId?: string
  agentType: string
  description: string
  status: AgentStatus
  background: boolean
  depth: number
  usage: Usage
  cost: Cost
  worktree: WorktreeState
  /** The final message, once done. */
  result?: string
}

/** A background job: a shell or an agent. */
export interface JobInfo {
  id: string
  kind: 'shell' | 'agent'
  description: string
  status: 'running' | 'exited' | 'killed' | 'failed'
  exitCode?: number
  startedAt: string
  endedAt?: string
}

/** One item of the todo list (TodoWrite). */
export interface TodoItem {
  content: string
  status: 'pending' | 'in_progress' | 'completed'
  activeForm?: string
}

/** A check run's evidence (spec 000 "Verification"). */
export interface CheckRecord {
  id: string
  checkId: string
  kind: 'test' | 'build' | 'typecheck' | 'lint' | 'other'
  command: string
  exitCode: number | null
  passed: boolean
  tests?: { passed: number; failed: number; skipped: number }
  durationMs: number
  /** Artifact holding the full output. */
  outputArtifact?: string
  fingerprintBefore: string
  fingerprintAfter: string
  at: string
}
