import type {
  AgentInfo,
  Checkpoint,
  CheckRecord,
  CompactionMarker,
  Cost,
  DecisionTrace,
  Message,
  MessageOrigin,
  PermissionMode,
  QuestionResponse,
  TaskView,
  TodoItem,
  ToolStatus,
  TurnOutcome,
  Usage,
  VerificationBadge,
} from '@z-engine/protocol'
import type { ReplayProblem } from './line-reader.js'

/** A tool call's status on replay: `interrupted` when the log ends before its result. */
export type DisplayToolStatus = ToolStatus | 'interrupted'

/** One row of the display transcript, in log order. */
export type TranscriptItem =
  | {
      kind: 'message'
      recordId: string
      at: string
      message: Message
      origin?: MessageOrigin
      turnId?: string
    }
  | {
      /** A tool call card; follows the assistant message that made the call. */
      kind: 'tool'
      toolUseId: string
      name: string
      input: Record<string, unknown>
      status: DisplayToolStatus
      turnId?: string
      /** The user's reply when the call asked questions (AskUserQuestion). */
      answer?: QuestionResponse
      /** What the user said when denying the call. */
      denyFeedback?: string
      /** Why the engine refused the call without asking (a rule, plan mode, a hook): its result text. */
      refusal?: string
    }
  | { kind: 'turnEnded'; turnId: string; outcome: TurnOutcome; recordId?: string }
  | { kind: 'compaction'; recordId: string; marker: CompactionMarker }
  | { kind: 'taskView'; recordId: string; view: TaskView }
  | { kind: 'notice'; recordId: string; level: 'info' | 'warning'; text: string }

/** One turn as replayed. */
export interface TurnRecord {
  turnId: string
  /** The user message that opened it, if recorded. */
  messageId?: string
  startedAt: string
  /** `interrupted` when the log has no `turnFinished` for it. */
  outcome: TurnOutcome
  interrupted: boolean
  usage?: Usage
  cost?: Cost
  badge?: VerificationBadge
  mutated?: boolean
}

/** How many of the latest decision traces a snapshot carries. */
export const MAX_REPLAYED_DECISION_TRACES = 200

/** Everything replay rebuilds from a session log. */
export interface SessionSnapshot {
  sessionId: string
  projectRoot: string
  createdAt: string
  formatVersion: number
  parent?: { sessionId: string; messageId?: string }
  /** What the user sees, oldest first. Rewound messages are gone; compactions only add a divider. */
  transcript: TranscriptItem[]
  turns: TurnRecord[]
  /**
   * What the model is sent next: compaction and task views applied, and every tool_use followed by
   * exactly one tool_result in call order (missing ones synthesized as interrupted).
   */
  workingSet: Message[]
  compactions: CompactionMarker[]
  taskViews: TaskView[]
  /** The latest decision traces (at most {@link MAX_REPLAYED_DECISION_TRACES}), oldest first. */
  decisionTraces: DecisionTrace[]
  todos: TodoItem[]
  mode?: PermissionMode
  model?: string
  title?: string
  usage: Usage
  cost: Cost
  /** Latest state of each subagent, in first-seen order. */
  agents: AgentInfo[]
  checkpoints: Checkpoint[]
  checks: CheckRecord[]
  /** Id of the last record applied, if any. */
  lastRecordId?: string
  /** Records applied (the header included). */
  recordCount: number
}

/** What `replay` returns: the snapshot and every line it had to skip or repair. */
export interface ReplayResult {
  snapshot: SessionSnapshot
  problems: ReplayProblem[]
}
