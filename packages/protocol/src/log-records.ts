/**
 * Journal records: the lines of a session's `log.jsonl` (and `agents/<id>.jsonl`). Every record is
 * appended before its event is published; replay rebuilds the display transcript and the model's
 * working set from them without repeating side effects. Streaming deltas and live-only decision
 * events are never persisted (spec 000 "Persistence").
 *
 * The first line is a `header` carrying {@link LOG_FORMAT_VERSION}; other records carry no version.
 * Records are open objects: a reader ignores fields it does not know, so adding an optional field
 * is not a format change.
 */

import { AgentInfoSchema, CheckRecordSchema, TodoItemSchema } from './agent.js'
import { CheckpointSchema, CompactionMarkerSchema, RewindScopeSchema, TaskViewSchema } from './history.js'
import {
  PlanDecisionSchema,
  PlanProposalSchema,
  QuestionRequestSchema,
  QuestionResponseSchema,
} from './interaction.js'
import { MessageSchema } from './message.js'
import { ApprovalDecisionSchema, ApprovalRequestSchema, PermissionModeSchema } from './permission.js'
import {
  type AnySchema,
  arr,
  bool,
  described,
  enums,
  type Infer,
  int,
  obj,
  str,
  tagged,
  variant,
} from './schema/builder.js'
import { TurnOutcomeSchema, VerificationBadgeSchema } from './turn.js'
import { CostSchema, UsageSchema } from './usage.js'

/** The journal format version written in every header; bumped on any incompatible change. */
export const LOG_FORMAT_VERSION = 2

const id = () => str({ minLength: 1 })
const common = {
  id: id(),
  at: str({ description: 'ISO 8601 time the record was written.' }),
}
const scope = {
  turnId: str({ description: 'The turn it happened in, if any.' }),
  agentId: str({ description: 'The subagent it belongs to; absent for the main agent.' }),
}

type Fields = Readonly<Record<string, AnySchema>>

/** Builds a record schema: `type`, `id`, `at`, optional `turnId`/`agentId`, and its own fields. */
function record<const T extends string, R extends Fields, O extends Fields = {}>(
  type: T,
  required: R,
  optional?: O,
) {
  return variant(type, { ...common, ...required }, { ...scope, ...(optional ?? ({} as O)) }, { open: true })
}

/** Where a message came from, so replay can label it (the model sees only its content). */
export const MessageOriginSchema = enums([
  'prompt',
  'command',
  'assistant',
  'toolResults',
  'steering',
  'summary',
  'reminder',
])
/** Where a message came from: a typed prompt, a prompt command, a model answer, tool results, … */
export type MessageOrigin = Infer<typeof MessageOriginSchema>

/** Schema of every log record, by `type`. */
export const LogRecordSchemas = {
  header: described(
    'First line of every log: format version, session identity, and the fork parent if any.',
    variant(
      'header',
      {
        ...common,
        formatVersion: int({ minimum: 1, description: 'The `LOG_FORMAT_VERSION` of the writer.' }),
        sessionId: id(),
        projectRoot: str(),
        createdAt: str({ description: 'ISO 8601 time the session was created.' }),
      },
      {
        parent: obj(
          { sessionId: id() },
          { messageId: id() },
          { description: 'The session this was forked from.' },
        ),
        engineVersion: str(),
        agentId: str({ description: 'In agents/<id>.jsonl: the agent whose transcript this is.' }),
      },
      { open: true },
    ),
  ),
  message: described(
    'A message appended to the transcript (and the working set).',
    record(
      'message',
      { message: MessageSchema },
      {
        origin: MessageOriginSchema,
        model: str({ description: 'The model that wrote an assistant message.' }),
      },
    ),
  ),
  turnStarted: described(
    'A turn began.',
    record('turnStarted', { turnId: id() }, { messageId: id(), command: str() }),
  ),
  turnFinished: described(
    'A turn ended; a `turnStarted` without one replays as interrupted.',
    record('turnFinished', {
      turnId: id(),
      outcome: TurnOutcomeSchema,
      usage: UsageSchema,
      cost: CostSchema,
      badge: VerificationBadgeSchema,
      mutated: bool(),
    }),
  ),
  todos: described('The todo list after a TodoWrite.', record('todos', { todos: arr(TodoItemSchema) })),
  planProposed: described(
    'A plan proposed through ExitPlanMode.',
    record('planProposed', { plan: PlanProposalSchema }),
  ),
  planResolved: described(
    "The user's decision on a plan.",
    record('planResolved', { planId: id(), decision: PlanDecisionSchema }),
  ),
  questionAsked: described(
    'An AskUserQuestion request.',
    record('questionAsked', { question: QuestionRequestSchema }),
  ),
  questionAnswered: described(
    "The user's answer to a question request.",
    record('questionAnswered', { questionId: id(), response: QuestionResponseSchema }),
  ),
  approvalRequested: described(
    'An approval card shown.',
    record('approvalRequested', { request: ApprovalRequestSchema }),
  ),
  approvalResolved: described(
    'An approval answered (the audit trail of every decision).',
    record('approvalResolved', { approvalId: id(), decision: ApprovalDecisionSchema }),
  ),
  agentUpdated: described(
    "A subagent's latest state (the last one per agent id wins on replay).",
    record('agentUpdated', { agent: AgentInfoSchema }),
  ),
  check: described("A check's evidence.", record('check', { check: CheckRecordSchema })),
  checkpoint: described(
    'A working-tree snapshot taken before a user turn.',
    record('checkpoint', { checkpoint: CheckpointSchema }),
  ),
  compaction: described(
    'A summary compaction: messages before `firstKeptMessageId` leave the working set and `summary` stands in for them; the display transcript keeps everything.',
    record('compaction', {
      marker: CompactionMarkerSchema,
      summary: MessageSchema,
      firstKeptMessageId: id(),
    }),
  ),
  rewind: described(
    'A rewind to before `messageId`; with conversation scope, later messages leave both transcripts.',
    record('rewind', { messageId: id(), scope: RewindScopeSchema }, { checkpointId: id() }),
  ),
  modeChanged: described(
    'The permission mode changed.',
    record('modeChanged', { mode: PermissionModeSchema }),
  ),
  modelChanged: described('The main model changed.', record('modelChanged', { model: str() })),
  titleChanged: described('The title changed.', record('titleChanged', { title: str() })),
  usage: described(
    "One model request's usage and cost (per-agent and session totals are sums of these).",
    record('usage', { usage: UsageSchema, cost: CostSchema, model: str() }),
  ),
  taskView: described(
    'A task view: the kept message ids in order plus the index message, or a restore.',
    record('taskView', { view: TaskViewSchema }),
  ),
} as const

/** Every log record `type`. */
export const LOG_RECORD_TYPES = Object.keys(LogRecordSchemas) as LogRecordType[]

type LogRecordSchemaList = readonly (typeof LogRecordSchemas)[keyof typeof LogRecordSchemas][]
/** Schema of {@link LogRecord}. */
export const LogRecordSchema = tagged(Object.values(LogRecordSchemas) as unknown as LogRecordSchemaList)

/** One line of a session log; a discriminated union on `type`. */
export type LogRecord = Infer<(typeof LogRecordSchemas)[keyof typeof LogRecordSchemas]>
/** The `type` tags of log records. */
export type LogRecordType = keyof typeof LogRecordSchemas
/** The log record of one `type`. */
export type LogRecordOf<T extends LogRecordType> = Extract<LogRecord, { type: T }>
/** The header record. */
export type LogHeader = LogRecordOf<'header'>
