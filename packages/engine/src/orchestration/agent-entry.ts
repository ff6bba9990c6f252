import type { AgentWorktree } from '@z-engine/host'
import type { AgentInfo, JobInfo, Message, PermissionMode } from '@z-engine/protocol'
import type { AgentRunResult } from '@z-engine/tools'
import type { AgentDefinition } from '../workspace/definitions/types.js'

/** Who starts an agent: the main agent (depth 0) or a subagent; the child inherits from it. */
export interface AgentCaller {
  /** The caller's depth: 0 for the main agent. */
  depth: number
  /** The calling subagent; absent for the main agent. */
  agentId?: string
  /** The caller's model reference now (what `inherit` means). */
  model(): string
  /** Whether the caller's model was chosen explicitly (an `inherit` child is pinned with it). */
  modelPinned(): boolean
  /** The caller's permission mode now (what a definition without `permissionMode` runs in). */
  mode(): PermissionMode
}

/** One subagent the session knows: its definition, transcript and where it runs. */
export interface AgentEntry {
  /** What the GUI sees; replaced (never mutated in place) on every change. */
  info: AgentInfo
  definition: AgentDefinition
  caller: AgentCaller
  modelRef: string
  /** Its model was chosen explicitly (see `agentModelPinned`): the route seam leaves it alone. */
  modelPinned: boolean
  /** The transcript (also the working set sent to its model). */
  messages: Message[]
  /** Reminders for its next user message (its own background agents finishing). */
  followUps: string[]
  /** Where its tools work: the project, or its worktree. */
  root: string
  worktree?: AgentWorktree
  /** The latest assistant text, what JobOutput shows of a background agent. */
  latestText: string
  /** The run in progress, if any. */
  running?: Promise<AgentRunResult>
  /** A background agent's job and the token that cancels it. */
  job?: { info: JobInfo; controller: AbortController; lastRead?: string }
}
