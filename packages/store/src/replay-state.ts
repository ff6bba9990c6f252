import {
  type AgentInfo,
  addCost,
  addUsage,
  type Checkpoint,
  type CheckRecord,
  type CompactionMarker,
  type Cost,
  type DecisionTrace,
  LOG_FORMAT_VERSION,
  type LogHeader,
  type LogRecord,
  type Message,
  type MessageOrigin,
  type PermissionMode,
  type TaskView,
  type TodoItem,
  type Usage,
  ZERO_COST,
  ZERO_USAGE,
} from '@z-engine/protocol'
import { LegacyRecordReader } from './legacy-records.js'
import type { ReplayProblem } from './line-reader.js'
import { checkRecordShape } from './record-shape.js'
import {
  MAX_REPLAYED_DECISION_TRACES,
  type SessionSnapshot,
  type TranscriptItem,
  type TurnRecord,
} from './snapshot.js'
import { pairToolResults } from './tool-pairing.js'
import { compactedWorkingSet, refusalOf, taskViewWorkingSet, toolStatusOf } from './working-set.js'

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>

/**
 * The state just before a user message, so a rewind can return to it. Arrays are only ever
 * appended to or replaced (never edited in place), so a reference plus a length is enough.
 */
interface Mark {
  transcript: TranscriptItem[]
  transcriptLength: number
  full: Message[]
  fullLength: number
  view: Message[] | null
  viewLength: number
  turnsLength: number
  compactionsLength: number
  taskViewsLength: number
  todos: TodoItem[]
}

/**
 * Folds log records — persisted events with their stamp — into a {@link SessionSnapshot}, switching
 * on the event type; feed it with `apply`, then call `finish`.
 */
export class ReplayState {
  readonly problems: ReplayProblem[] = []
  private header: LogHeader | undefined
  private transcript: TranscriptItem[] = []
  private turns: TurnRecord[] = []
  private readonly openTurns = new Map<string, TurnRecord>()
  /** The working set before any task view. */
  private full: Message[] = []
  /** The working set a task view chose, or null when none applies. */
  private view: Message[] | null = null
  private compactions: CompactionMarker[] = []
  private taskViews: TaskView[] = []
  private decisionTraces: DecisionTrace[] = []
  private todos: TodoItem[] = []
  private mode: PermissionMode | undefined
  private model: string | undefined
  private title: string | undefined
  private usage: Usage = ZERO_USAGE
  private cost: Cost = ZERO_COST
  private readonly agents = new Map<string, AgentInfo>()
  private readonly checkpoints: Checkpoint[] = []
  private readonly checks: CheckRecord[] = []
  private readonly toolItems = new Map<string, ToolItem>()
  private readonly deniedToolUses = new Set<string>()
  /** Question request id → the AskUserQuestion call that asked it. */
  private readonly questions = new Map<string, string>()
  private readonly approvals = new Map<string, string>()
  private readonly marks = new Map<string, Mark>()
  private lastRecordId: string | undefined
  private recordCount = 0
  private seenAny = false
  private readonly legacy = new LegacyRecordReader()

  constructor(private readonly file: string) {}

  /** Applies one parsed line (format-2 records through the upgrade reader); problems are collected, never thrown. */
  apply(value: unknown, offset: number, length: number): void {
    const shape = checkRecordShape(this.legacy.upgrade(value))
    if (!shape.ok) {
      this.problem(shape.kind, offset, length, shape.message)
      return
    }
    const record = shape.record
    if (!this.seenAny && record.type !== 'header') {
      this.problem('missingHeader', 0, 0, 'the log does not start with a header record; replaying it anyway')
    }
    this.seenAny = true
    this.recordCount++
    this.lastRecordId = record.id
    this.applyRecord(record, offset, length)
  }

  private applyRecord(record: LogRecord, offset: number, length: number): void {
    switch (record.type) {
      case 'header':
        if (this.header !== undefined) {
          this.problem('inconsistent', offset, length, 'a second header record was ignored')
          return
        }
        this.header = record
        if (record.formatVersion > LOG_FORMAT_VERSION) {
          const text = `the log has format ${record.formatVersion}, newer than ${LOG_FORMAT_VERSION}; upgrade z-engine to replay it fully`
          this.problem('newerFormat', offset, length, text)
        }
        return
      case 'messageRecorded':
        if (record.agentId !== undefined && this.header?.agentId === undefined) return
        this.appendMessage(record.message, record.id, record.at, record.origin, record.turnId)
        return
      case 'turnStarted': {
        this.closeOpenTurns(record.id)
        if (record.messageId !== undefined) this.markBefore(record.messageId)
        const turn: TurnRecord = {
          turnId: record.turnId,
          startedAt: record.at,
          outcome: { type: 'interrupted' },
          interrupted: true,
          ...(record.messageId !== undefined ? { messageId: record.messageId } : {}),
        }
        this.turns.push(turn)
        this.openTurns.set(record.turnId, turn)
        return
      }
      case 'turnFinished': {
        const turn = this.openTurns.get(record.turnId)
        if (turn === undefined) {
          this.problem(
            'inconsistent',
            offset,
            length,
            `turn ${record.turnId} finished but never started; ignored`,
          )
          return
        }
        this.openTurns.delete(record.turnId)
        // Replaced, not edited: marks taken earlier may still hold the unfinished object.
        const finished: TurnRecord = {
          ...turn,
          outcome: record.outcome,
          interrupted: false,
          usage: record.usage,
          cost: record.cost,
          badge: record.badge,
          mutated: record.mutated,
        }
        const index = this.turns.lastIndexOf(turn)
        if (index !== -1) this.turns[index] = finished
        this.transcript.push({
          kind: 'turnEnded',
          turnId: record.turnId,
          outcome: record.outcome,
          recordId: record.id,
        })
        return
      }
      case 'todosUpdated':
        this.todos = record.todos
        return
      case 'planProposed':
      case 'planResolved':
        // Shown through the tool call that carries it (ExitPlanMode); kept as audit.
        return
      case 'questionAsked':
        this.questions.set(record.question.id, record.question.toolUseId)
        return
      case 'questionAnswered': {
        const item = this.toolItems.get(this.questions.get(record.questionId) ?? '')
        if (item !== undefined) item.answer = record.response
        return
      }
      case 'approvalRequested':
        this.approvals.set(record.request.id, record.request.toolUseId)
        return
      case 'approvalResolved': {
        const toolUseId = this.approvals.get(record.approvalId)
        if (toolUseId === undefined || record.decision.type !== 'deny') return
        this.deniedToolUses.add(toolUseId)
        const feedback = record.decision.feedback?.trim()
        const item = this.toolItems.get(toolUseId)
        if (item !== undefined && feedback) item.denyFeedback = feedback
        return
      }
      case 'agentUpdated':
        this.agents.set(record.agent.id, record.agent)
        return
      case 'checkRecorded':
        this.checks.push(record.record)
        return
      case 'checkpointCreated':
        this.checkpoints.push(record.checkpoint)
        return
      case 'compacted':
        this.applyCompaction(
          record.marker,
          record.summary,
          record.firstKeptMessageId,
          record.id,
          offset,
          length,
        )
        return
      case 'rewound':
        this.applyRewind(record.messageId, record.scope, record.id, offset, length)
        return
      case 'modeChanged':
        this.mode = record.mode
        return
      case 'modelChanged':
        this.model = record.model
        return
      case 'titleChanged':
        this.title = record.title
        return
      case 'usageUpdated':
        this.usage = addUsage(this.usage, record.usage)
        this.cost = addCost(this.cost, record.cost)
        return
      case 'taskViewApplied':
        this.applyTaskView(record.view, record.id, offset, length)
        return
      case 'decisionTraced':
        // Only the latest are kept: `/decisions` shows recent ones, and a long session has thousands.
        this.decisionTraces.push(record.trace)
        if (this.decisionTraces.length > 2 * MAX_REPLAYED_DECISION_TRACES)
          this.decisionTraces = this.decisionTraces.slice(-MAX_REPLAYED_DECISION_TRACES)
        return
      default: {
        const unreachable: never = record
        throw new Error(`unhandled log record ${JSON.stringify(unreachable)}`)
      }
    }
  }

  private appendMessage(
    message: Message,
    recordId: string,
    at: string,
    origin: MessageOrigin | undefined,
    turnId: string | undefined,
  ): void {
    const opensTurn =
      message.role === 'user' && !message.content.some((block) => block.type === 'tool_result')
    if (opensTurn) this.markBefore(message.id)
    this.transcript.push({
      kind: 'message',
      recordId,
      at,
      message,
      ...(origin !== undefined ? { origin } : {}),
      ...(turnId !== undefined ? { turnId } : {}),
    })
    for (const block of message.content) {
      if (block.type === 'tool_use') {
        const item: ToolItem = {
          kind: 'tool',
          toolUseId: block.id,
          name: block.name,
          input: block.input,
          status: 'interrupted',
          ...(turnId !== undefined ? { turnId } : {}),
        }
        this.toolItems.set(block.id, item)
        this.transcript.push(item)
      } else if (block.type === 'tool_result') {
        const item = this.toolItems.get(block.toolUseId)
        if (item !== undefined) {
          item.status = toolStatusOf(block.isError, block.content, this.deniedToolUses.has(block.toolUseId))
          const refusal = refusalOf(block.isError, block.content)
          if (refusal !== undefined) item.refusal = refusal
        }
      }
    }
    this.full.push(message)
    this.view?.push(message)
  }

  private markBefore(messageId: string): void {
    if (this.marks.has(messageId)) return
    this.marks.set(messageId, {
      transcript: this.transcript,
      transcriptLength: this.transcript.length,
      full: this.full,
      fullLength: this.full.length,
      view: this.view,
      viewLength: this.view?.length ?? 0,
      turnsLength: this.turns.length,
      compactionsLength: this.compactions.length,
      taskViewsLength: this.taskViews.length,
      todos: this.todos,
    })
  }

  private closeOpenTurns(recordId: string): void {
    for (const turn of this.openTurns.values()) {
      this.transcript.push({
        kind: 'turnEnded',
        turnId: turn.turnId,
        outcome: { type: 'interrupted' },
        recordId,
      })
    }
    this.openTurns.clear()
  }

  private applyCompaction(
    marker: CompactionMarker,
    summary: Message,
    firstKeptMessageId: string,
    recordId: string,
    offset: number,
    length: number,
  ): void {
    // With a task view in use the summary covered what the model saw: the view (as the engine did).
    const compacted = compactedWorkingSet(this.view ?? this.full, summary, firstKeptMessageId)
    if (!compacted.found) {
      const text = `compaction keeps from message ${firstKeptMessageId}, which is not in the working set; kept only the summary`
      this.problem('inconsistent', offset, length, text)
    }
    this.full = compacted.messages
    this.view = null
    this.compactions = [...this.compactions, marker]
    this.transcript.push({ kind: 'compaction', recordId, marker })
  }

  private applyTaskView(view: TaskView, recordId: string, offset: number, length: number): void {
    this.taskViews = [...this.taskViews, view]
    this.transcript.push({ kind: 'taskView', recordId, view })
    if (view.restored) {
      this.view = null
      return
    }
    const chosen = taskViewWorkingSet(this.full, view)
    for (const id of chosen.missing) {
      this.problem(
        'inconsistent',
        offset,
        length,
        `task view ${view.id} keeps unknown message ${id}; skipped it`,
      )
    }
    this.view = chosen.messages
  }

  private applyRewind(
    messageId: string,
    scope: 'code' | 'conversation' | 'both',
    recordId: string,
    offset: number,
    length: number,
  ): void {
    if (scope !== 'code') {
      const mark = this.marks.get(messageId)
      if (mark === undefined) {
        this.problem('inconsistent', offset, length, `rewind to unknown user message ${messageId}; ignored`)
        return
      }
      this.transcript = mark.transcript.slice(0, mark.transcriptLength)
      this.full = mark.full.slice(0, mark.fullLength)
      this.view = mark.view === null ? null : mark.view.slice(0, mark.viewLength)
      this.turns = this.turns.slice(0, mark.turnsLength)
      this.compactions = this.compactions.slice(0, mark.compactionsLength)
      this.taskViews = this.taskViews.slice(0, mark.taskViewsLength)
      this.todos = mark.todos
      this.openTurns.clear()
      // Marks after the target point at state that no longer exists.
      for (const [id, later] of this.marks)
        if (later.turnsLength > mark.turnsLength || id === messageId) this.marks.delete(id)
    }
    const what =
      scope === 'code' ? 'Files' : scope === 'conversation' ? 'Conversation' : 'Files and conversation'
    this.transcript.push({
      kind: 'notice',
      recordId,
      level: 'info',
      text: `${what} rewound to before message ${messageId}`,
    })
  }

  private problem(kind: ReplayProblem['kind'], offset: number, length: number, message: string): void {
    this.problems.push({ kind, file: this.file, offset, length, message })
  }

  /** Closes open turns as interrupted, pairs tool results, and returns the snapshot. */
  finish(): SessionSnapshot {
    this.closeOpenTurns(this.lastRecordId ?? '')
    const header = this.header
    return {
      sessionId: header?.sessionId ?? '',
      projectRoot: header?.projectRoot ?? '',
      createdAt: header?.createdAt ?? '',
      formatVersion: header?.formatVersion ?? LOG_FORMAT_VERSION,
      ...(header?.parent !== undefined ? { parent: header.parent } : {}),
      transcript: this.transcript,
      turns: this.turns,
      workingSet: pairToolResults(this.view ?? this.full),
      compactions: this.compactions,
      taskViews: this.taskViews,
      decisionTraces: this.decisionTraces.slice(-MAX_REPLAYED_DECISION_TRACES),
      todos: this.todos,
      ...(this.mode !== undefined ? { mode: this.mode } : {}),
      ...(this.model !== undefined ? { model: this.model } : {}),
      ...(this.title !== undefined ? { title: this.title } : {}),
      usage: this.usage,
      cost: this.cost,
      agents: [...this.agents.values()],
      checkpoints: this.checkpoints,
      checks: this.checks,
      ...(this.lastRecordId !== undefined ? { lastRecordId: this.lastRecordId } : {}),
      recordCount: this.recordCount,
    }
  }
}
