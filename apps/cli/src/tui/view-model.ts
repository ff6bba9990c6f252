import type {
  AgentInfo,
  ApprovalRequest,
  PermissionMode,
  PlanProposal,
  QuestionRequest,
  ToolStatus,
  TurnOutcome,
  VerificationBadge,
} from '@z-engine/protocol'
import type { AttachedFile } from './attached-files.js'

/** How a tool card ended, or `running`; `interrupted` comes from a replayed log that stops mid-call. */
export type ToolCardStatus = 'running' | ToolStatus | 'interrupted'

/** A tool call as its card shows it. */
export interface ToolCard {
  toolUseId: string
  toolName: string
  title: string
  status: ToolCardStatus
  /** The last lines of streamed output or status messages, newest last; the last one may be partial. */
  progress: string[]
  summary?: string
  durationMs?: number
  agentId?: string
  /** A finished call's output as the card shows it, collapsed: its last lines, and how many are hidden. */
  output?: { lines: string[]; hidden: number }
  /** What the user answered for this call: the chosen AskUserQuestion answers, or deny feedback. */
  reply?: string
  /** The file change the call made: the card shows its counts, Ctrl-O prints the hunks (`body`). */
  change?: { path: string; added: number; removed: number; body: string }
}

/** A finished call's whole output, kept so Ctrl-O can show it. */
export interface ToolOutput {
  toolUseId: string
  title: string
  text: string
  /** The text is a diff's hunks (coloured as one). */
  diff?: boolean
}

/**
 * One row of the transcript. Finished rows go to Ink's `<Static>` (printed once, never redrawn) so a
 * long transcript never flickers; only the rows still streaming are redrawn.
 */
export type TranscriptEntry =
  /** A message the user wrote; `attached`: the files its `@path` mentions attached (shown as one line each). */
  | { kind: 'user'; key: string; text: string; attached?: AttachedFile[] }
  | { kind: 'assistant'; key: string; text: string }
  /** Collapsed to one line: the reasoning is long and rarely read while the answer streams. */
  | { kind: 'thinking'; key: string; text: string }
  | { kind: 'tool'; key: string; card: ToolCard }
  | { kind: 'notice'; key: string; level: 'info' | 'warning' | 'error'; text: string }
  | { kind: 'commandOutput'; key: string; name: string; markdown: string }
  | { kind: 'turnEnded'; key: string; outcome: TurnOutcome }
  | { kind: 'divider'; key: string; text: string }
  /** A subagent that finished, failed or was cancelled. */
  | { kind: 'agent'; key: string; agent: AgentInfo }
  /** The first row of a chat: what is running where, and where help is. */
  | { kind: 'banner'; key: string; version: string; projectRoot: string; sessionId: string }
  /** A call's whole output, shown on Ctrl-O. */
  | { kind: 'toolOutput'; key: string; title: string; text: string; diff?: boolean }
  /** The plan the user approved (ExitPlanMode), kept as agreed; `mode` is the one it was approved into. */
  | { kind: 'plan'; key: string; markdown: string; mode?: PermissionMode }

/** A transient model failure being retried; repeats of the same reason update it in place. */
export interface RetryNotice {
  reason: string
  attempt: number
  delayMs: number
  maxAttempts?: number
}

/** The live line for a retry: `overloaded; retrying in 2s (attempt 3/5)`. */
export function retryText(retry: RetryNotice): string {
  const of = retry.maxAttempts === undefined ? '' : `/${retry.maxAttempts}`
  return `${retry.reason}; retrying in ${Math.ceil(retry.delayMs / 1000)}s (attempt ${retry.attempt}${of})`
}

/** The rows still changing: streaming text and thinking parts, and running tool cards. */
export interface LiveRows {
  /** Part id → row, in start order. */
  parts: Map<string, Extract<TranscriptEntry, { kind: 'assistant' | 'thinking' }>>
  /** Tool use id → card, in start order. */
  tools: Map<string, ToolCard>
  /** Subagents still working (pending, running or waiting), by id. */
  agents: Map<string, AgentInfo>
}

/** A user message the conversation can be rewound to (to just before it). */
export interface RewindTarget {
  messageId: string
  text: string
  /** Its turn changed files (the picker says so: a code rewind to it undoes something). */
  changedFiles?: boolean
}

/** A file whose overlapping hunks a rewind left, waiting for the user's keep-or-revert answer. */
export interface RewindConflictChoice {
  messageId: string
  path: string
  hunks: number
}

/** Everything the chat screen shows, rebuilt from events by `reduceEvent`. */
export interface ChatState {
  finished: TranscriptEntry[]
  live: LiveRows
  /** Approval cards waiting for an answer, in request order (a batch's asks arrive together). */
  approvals: ApprovalRequest[]
  questions: QuestionRequest[]
  plans: PlanProposal[]
  /** Messages typed while a turn ran, shown as queued until the engine delivers them. */
  queued: string[]
  busy: boolean
  /** The model request being retried: one live line updated on each attempt, printed once it ends. */
  retry?: RetryNotice
  /** When the running turn started (epoch ms, from its event), for the status line's elapsed time. */
  busySince?: number
  mode: PermissionMode
  model: string
  sessionId: string
  /** The session's project folder (paths inside it are shown relative). */
  projectRoot?: string
  contextTokens?: number
  contextWindow?: number
  costUsd: number
  /** The last finished turn's verification badge (docs/verification.md). */
  badge?: VerificationBadge
  /** Tool results recorded before their call's `toolFinished` (tool use id → output text). */
  results: Map<string, string>
  /** The latest finished calls' whole outputs, oldest first (Ctrl-O shows the newest not yet shown). */
  outputs: ToolOutput[]
  /** The user's answers to a call's question or approval (tool use id → text), until its card is printed. */
  replies: Map<string, string>
  /** Calls that ended in error without a summary: their result's text is shown when it is recorded. */
  unexplained: Map<string, string>
  /** The user's messages still in the conversation, oldest first: what `/rewind` offers. */
  prompts: RewindTarget[]
  /** The user messages a working-tree checkpoint was taken before (code can be rewound to them). */
  checkpoints: ReadonlySet<string>
  /** Files a code rewind left hunks in (later edits overlap the agent's): the chat asks keep or revert whole. */
  rewindConflicts: RewindConflictChoice[]
  /** The project withholds trust-gated settings and the user has not answered the trust prompt. */
  trustRequest?: { categories: string[] }
  /** Monotonic counter for row keys. */
  nextKey: number
}

/** How many finished outputs are kept for Ctrl-O. */
export const KEPT_OUTPUTS = 20

/** The state before any event: the session's mode and model as opened. */
export function initialChatState(init: {
  sessionId: string
  mode: PermissionMode
  model: string
  projectRoot?: string
  finished?: TranscriptEntry[]
  costUsd?: number
  prompts?: RewindTarget[]
  checkpoints?: Iterable<string>
  /** What Ctrl-O can show already (a resumed chat's replayed changes). */
  outputs?: ToolOutput[]
}): ChatState {
  return {
    finished: init.finished ?? [],
    live: { parts: new Map(), tools: new Map(), agents: new Map() },
    approvals: [],
    questions: [],
    plans: [],
    queued: [],
    unexplained: new Map(),
    replies: new Map(),
    results: new Map(),
    outputs: (init.outputs ?? []).slice(-KEPT_OUTPUTS),
    prompts: init.prompts ?? [],
    checkpoints: new Set(init.checkpoints ?? []),
    rewindConflicts: [],
    busy: false,
    mode: init.mode,
    model: init.model,
    sessionId: init.sessionId,
    ...(init.projectRoot !== undefined ? { projectRoot: init.projectRoot } : {}),
    costUsd: init.costUsd ?? 0,
    nextKey: (init.finished?.length ?? 0) + 1,
  }
}

/** The context meter as a whole percentage, once a request reported its prompt size. */
export function contextPercent(state: ChatState, fallbackWindow?: number): number | undefined {
  const window = state.contextWindow ?? fallbackWindow
  if (state.contextTokens === undefined || !window) return undefined
  return Math.min(100, Math.round((state.contextTokens / window) * 100))
}

/** The output lines a running card shows: the tail, without an empty line still being written. */
export function visibleProgress(card: ToolCard): string[] {
  return card.progress.filter((line, index) => line !== '' || index < card.progress.length - 1)
}
