/**
 * Events: every observable change in a session, journaled (when persisted) before it is published,
 * and delivered in an {@link EventEnvelope}. Streaming parts follow vercel/ai's start/delta/end.
 */

import { AgentInfoSchema, CheckRecordSchema, JobInfoSchema, TodoItemSchema } from './agent.js'
import {
  CompletionClaimSchema,
  RouteSchema,
  SuggestionSchema,
  TurnToneSchema,
  UrgencySchema,
} from './decisions.js'
import {
  CheckpointSchema,
  CompactionMarkerSchema,
  CompactionTriggerSchema,
  RewindScopeSchema,
  TaskViewSchema,
} from './history.js'
import {
  PlanDecisionSchema,
  PlanProposalSchema,
  QuestionRequestSchema,
  QuestionResponseSchema,
} from './interaction.js'
import { MessageSchema } from './message.js'
import { ApprovalDecisionSchema, ApprovalRequestSchema, PermissionModeSchema } from './permission.js'
import { anyObject, arr, bool, enums, type Infer, int, obj, str, tagged, variant } from './schema/builder.js'
import { ToolStatusSchema } from './tool-spec.js'
import { TurnOutcomeSchema, VerificationBadgeSchema } from './turn.js'
import { CostSchema, UsageSchema } from './usage.js'

const id = () => str({ minLength: 1 })
const count = () => int({ minimum: 0 })

/** Schema of {@link ToolProgress}. */
export const ToolProgressSchema = tagged([
  variant('output', { stream: enums(['stdout', 'stderr']), text: str() }),
  variant('status', { message: str() }),
])
/** One piece of a running tool's progress (at most about twenty events a second). */
export type ToolProgress = Infer<typeof ToolProgressSchema>

/** Schema of {@link NoticeLevel}. */
export const NoticeLevelSchema = enums(['info', 'warning', 'error'])
/** How loud a notice is; `warning` is the spec's warning event. */
export type NoticeLevel = Infer<typeof NoticeLevelSchema>

/** Schema of every event, by `type`. */
export const EventSchemas = {
  /** A session is open (new, resumed or forked) and ready for commands. */
  sessionOpened: variant(
    'sessionOpened',
    {
      sessionId: id(),
      projectRoot: str(),
      mode: PermissionModeSchema,
      model: str(),
      resumed: bool(),
      protocolVersion: int({ minimum: 1 }),
    },
    { title: str(), forkedFrom: obj({ sessionId: id() }, { messageId: id() }) },
  ),
  /** A turn began (user message or prompt command). */
  turnStarted: variant('turnStarted', { turnId: id() }, { messageId: id(), command: str() }),
  /** A turn ended, with its outcome, usage, cost and verification badge. */
  turnFinished: variant('turnFinished', {
    turnId: id(),
    outcome: TurnOutcomeSchema,
    usage: UsageSchema,
    cost: CostSchema,
    badge: VerificationBadgeSchema,
    mutated: bool(),
  }),
  /** Token usage after a model request: that request's, the session's totals, and the context meter. */
  usageUpdated: variant(
    'usageUpdated',
    { usage: UsageSchema, cost: CostSchema, sessionUsage: UsageSchema, sessionCost: CostSchema },
    { model: str(), contextTokens: count(), contextWindow: count() },
  ),
  /** A model request failed transiently and will be retried after `delayMs`. */
  retrying: variant(
    'retrying',
    { attempt: int({ minimum: 1 }), delayMs: count(), reason: str() },
    { maxAttempts: int({ minimum: 1 }) },
  ),
  /** A text part of the streaming assistant message begins. */
  textStart: variant('textStart', { id: id() }),
  /** More text of the part `id`. */
  textDelta: variant('textDelta', { id: id(), delta: str() }),
  /** The text part `id` is complete. */
  textEnd: variant('textEnd', { id: id() }),
  /** A thinking part begins. */
  thinkingStart: variant('thinkingStart', { id: id() }),
  /** More reasoning text of the part `id` (empty deltas are not sent; redacted thinking sends none). */
  thinkingDelta: variant('thinkingDelta', { id: id(), delta: str() }),
  /** The thinking part `id` is complete. */
  thinkingEnd: variant('thinkingEnd', { id: id() }),
  /** A message was appended to the transcript (user, assistant, tool results, summary). */
  messageRecorded: variant('messageRecorded', { message: MessageSchema }),
  /** A steering message was queued for the running turn. */
  steeringQueued: variant('steeringQueued', { text: str() }),
  /** A tool call passed the gate and starts running. */
  toolStarted: variant('toolStarted', { toolUseId: id(), toolName: str(), title: str(), input: anyObject() }),
  /** Streamed progress of a running tool call. */
  toolProgress: variant('toolProgress', { toolUseId: id(), progress: ToolProgressSchema }),
  /** A tool call ended (every call gets exactly one, even when denied or cancelled). */
  toolFinished: variant(
    'toolFinished',
    { toolUseId: id(), toolName: str(), status: ToolStatusSchema, durationMs: count() },
    { summary: str() },
  ),
  /** An approval card to show; every ask of a batch is requested together. */
  approvalRequested: variant('approvalRequested', { request: ApprovalRequestSchema }),
  /** An approval was answered (or cancelled with its turn, as a deny). */
  approvalResolved: variant('approvalResolved', { approvalId: id(), decision: ApprovalDecisionSchema }),
  /** The agent asks the user structured questions (AskUserQuestion). */
  questionAsked: variant('questionAsked', { question: QuestionRequestSchema }),
  /** A question request was answered or dismissed. */
  questionAnswered: variant('questionAnswered', { questionId: id(), response: QuestionResponseSchema }),
  /** The agent proposes a plan to leave plan mode (ExitPlanMode). */
  planProposed: variant('planProposed', { plan: PlanProposalSchema }),
  /** A plan was approved or rejected. */
  planResolved: variant('planResolved', { planId: id(), decision: PlanDecisionSchema }),
  /** The todo list changed (TodoWrite); it survives compaction. */
  todosUpdated: variant('todosUpdated', { todos: arr(TodoItemSchema) }),
  /** The permission mode changed. */
  modeChanged: variant('modeChanged', { mode: PermissionModeSchema }),
  /** The main model changed. */
  modelChanged: variant('modelChanged', { model: str() }),
  /** The session title changed. */
  titleChanged: variant('titleChanged', { title: str() }),
  /** A subagent's state changed. */
  agentUpdated: variant('agentUpdated', { agent: AgentInfoSchema }),
  /** A background job's state or output changed (throttled per job; an exit always emits). */
  jobUpdated: variant('jobUpdated', { job: JobInfoSchema }),
  /** A check ran and its evidence was recorded. */
  checkRecorded: variant('checkRecorded', { record: CheckRecordSchema }),
  /** The working tree was snapshotted before a user turn. */
  checkpointCreated: variant('checkpointCreated', { checkpoint: CheckpointSchema }),
  /** The session was rewound to before a user message. */
  rewound: variant(
    'rewound',
    { messageId: id(), scope: RewindScopeSchema },
    { restoredFiles: arr(str()), removedMessageIds: arr(str()) },
  ),
  /** Summary compaction of the main agent began ("Compacting context…"). */
  compactionStarted: variant('compactionStarted', { trigger: CompactionTriggerSchema }),
  /** Summary compaction finished; the marker is the "Context compacted" divider. */
  compacted: variant('compacted', { marker: CompactionMarkerSchema }),
  /** Output of an informational built-in command (`/cost`, `/context`, …). */
  commandOutput: variant('commandOutput', { name: str(), markdown: str() }),
  /** The project sets trust-gated categories that stay withheld until the user trusts it. */
  trustRequired: variant('trustRequired', { projectRoot: str(), categories: arr(str()) }),
  /** Something the user should know: an unknown command, a failed summary, a missing sandbox. */
  notice: variant('notice', { level: NoticeLevelSchema, message: str() }, { code: str() }),
  /** The route seam chose an effort or model. */
  routeChosen: variant('routeChosen', { route: RouteSchema }),
  /** A task view replaced the working set (or restored the full history). */
  taskViewApplied: variant('taskViewApplied', { view: TaskViewSchema }),
  /** The final answer claims completion that no check backs. */
  completionClaimUnchecked: variant('completionClaimUnchecked', { claim: CompletionClaimSchema }),
  /** A decision use proposes something the user may accept. */
  suggested: variant('suggested', { suggestion: SuggestionSchema }),
  /** A suggestion was accepted or dismissed. */
  suggestionResolved: variant('suggestionResolved', { suggestionId: id(), accepted: bool() }),
  /** The turn-end seam judged the user's tone in a turn. */
  turnToneJudged: variant('turnToneJudged', { turnId: id(), tone: TurnToneSchema }),
  /** The attention seam scored how urgent an item is. */
  urgencyScored: variant('urgencyScored', { urgency: UrgencySchema }),
} as const

/** Every event `type`, in documentation order. */
export const EVENT_TYPES = Object.keys(EventSchemas) as EventType[]

type EventSchemaList = readonly (typeof EventSchemas)[keyof typeof EventSchemas][]
/** Schema of {@link EngineEvent}. */
export const EngineEventSchema = tagged(Object.values(EventSchemas) as unknown as EventSchemaList)

/** Every event a session publishes; a discriminated union on `type`. */
export type EngineEvent = Infer<(typeof EventSchemas)[keyof typeof EventSchemas]>
/** The `type` tags of events. */
export type EventType = keyof typeof EventSchemas
/** The event of one `type`. */
export type EventOf<T extends EventType> = Extract<EngineEvent, { type: T }>
