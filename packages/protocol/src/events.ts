/**
 * Events: every observable change in a session, journaled (when persisted) before it is published,
 * and delivered in an {@link EventEnvelope}. Streaming parts follow vercel/ai's start/delta/end.
 */

import { AgentInfoSchema, CheckRecordSchema, JobInfoSchema, TodoItemSchema } from './agent.js'
import {
  CompletionClaimSchema,
  DecisionTraceSchema,
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
import { MessageOriginSchema, MessageSchema } from './message.js'
import { ApprovalDecisionSchema, ApprovalRequestSchema, PermissionModeSchema } from './permission.js'
import {
  anyObject,
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
import { ToolStatusSchema } from './tool-spec.js'
import { TurnOutcomeSchema, VerificationBadgeSchema } from './turn.js'
import { CostSchema, UsageSchema } from './usage.js'

const id = () => str({ minLength: 1 })
const count = () => int({ minimum: 0 })

/** Schema of {@link RewindConflict}. */
export const RewindConflictSchema = obj({
  path: str(),
  hunks: arr(
    obj({
      current: str({ description: 'The region as the file has it now (kept).' }),
      agent: str({ description: 'The region as the agent left it.' }),
      restored: str({ description: 'The region as it was at the checkpoint.' }),
    }),
  ),
})
/** A file a hunk-level rewind could not fully revert: the regions where a later edit overlaps the agent's. */
export type RewindConflict = Infer<typeof RewindConflictSchema>

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
  sessionOpened: described(
    'A session is open (new, resumed or forked) and ready for commands.',
    variant(
      'sessionOpened',
      {
        sessionId: id(),
        projectRoot: str(),
        mode: PermissionModeSchema,
        model: str(),
        resumed: bool({ description: 'True when reopened from the store.' }),
        protocolVersion: int({ minimum: 1 }),
      },
      { title: str(), forkedFrom: obj({ sessionId: id() }, { messageId: id() }) },
    ),
  ),
  turnStarted: described(
    'A turn began (user message or prompt command).',
    variant('turnStarted', { turnId: id() }, { messageId: id(), command: str() }),
  ),
  turnFinished: described(
    'A turn ended, with its outcome, usage, cost, verification badge and final text.',
    variant(
      'turnFinished',
      {
        turnId: id(),
        outcome: TurnOutcomeSchema,
        usage: UsageSchema,
        cost: CostSchema,
        badge: VerificationBadgeSchema,
        mutated: bool(),
      },
      {
        text: str({
          description:
            "The turn's final answer: the text of its last assistant message (absent when it had none, or on replay).",
        }),
      },
    ),
  ),
  usageUpdated: described(
    "Token usage after a model request: that request's, the session's totals, and the context meter.",
    variant(
      'usageUpdated',
      {
        usage: described('This request.', UsageSchema),
        cost: described('This request.', CostSchema),
        sessionUsage: described('The session so far, subagents included.', UsageSchema),
        sessionCost: described('The session so far, subagents included.', CostSchema),
      },
      {
        model: str(),
        contextTokens: int({ minimum: 0, description: 'Context meter: estimated prompt size now.' }),
        contextWindow: int({ minimum: 0, description: "The model's context window." }),
      },
    ),
  ),
  retrying: described(
    'A model request failed transiently and will be retried after `delayMs`.',
    variant(
      'retrying',
      { attempt: int({ minimum: 1 }), delayMs: count(), reason: str() },
      { maxAttempts: int({ minimum: 1 }) },
    ),
  ),
  textStart: described(
    'A text part of the streaming assistant message begins.',
    variant('textStart', { id: id() }),
  ),
  textDelta: described('More text of the part `id`.', variant('textDelta', { id: id(), delta: str() })),
  textEnd: described('The text part `id` is complete.', variant('textEnd', { id: id() })),
  thinkingStart: described('A thinking part begins.', variant('thinkingStart', { id: id() })),
  thinkingDelta: described(
    'More reasoning text of the part `id` (empty deltas are not sent; redacted thinking sends none).',
    variant('thinkingDelta', { id: id(), delta: str() }),
  ),
  thinkingEnd: described('The thinking part `id` is complete.', variant('thinkingEnd', { id: id() })),
  messageRecorded: described(
    'A message was appended to the transcript (user, assistant, tool results, summary).',
    variant(
      'messageRecorded',
      { message: MessageSchema },
      {
        origin: described('Where it came from, so a replayed transcript can label it.', MessageOriginSchema),
      },
    ),
  ),
  steeringQueued: described(
    'A steering message was queued for the running turn.',
    variant('steeringQueued', { text: str() }),
  ),
  toolStarted: described(
    'A tool call passed the gate and starts running.',
    variant('toolStarted', { toolUseId: id(), toolName: str(), title: str(), input: anyObject() }),
  ),
  toolProgress: described(
    'Streamed progress of a running tool call.',
    variant('toolProgress', { toolUseId: id(), progress: ToolProgressSchema }),
  ),
  toolFinished: described(
    'A tool call ended (every call gets exactly one, even when denied or cancelled).',
    variant(
      'toolFinished',
      { toolUseId: id(), toolName: str(), status: ToolStatusSchema, durationMs: count() },
      {
        summary: str({ description: 'A one-line result for the card, e.g. "exit 1" or the denial reason.' }),
        output: str({
          description:
            "The result's text as the model received it (images as [image]); long output is already shortened and names the artifact holding the rest.",
        }),
        readOnly: bool({
          description:
            "Whether the call, as given, only reads (the tool's own classification); absent when the tool is unknown or could not tell. Headless runs count a denied call that is not read-only as a denied change.",
        }),
        diff: described(
          'The change a successful file tool made (Edit, MultiEdit, Write, NotebookEdit): the file and its unified diff, so every applied edit can be shown, however it was approved.',
          obj({ path: str(), unifiedDiff: str() }),
        ),
      },
    ),
  ),
  approvalRequested: described(
    'An approval card to show; every ask of a batch is requested together.',
    variant('approvalRequested', { request: ApprovalRequestSchema }),
  ),
  approvalResolved: described(
    'An approval was answered (or cancelled with its turn, as a deny).',
    variant('approvalResolved', { approvalId: id(), decision: ApprovalDecisionSchema }),
  ),
  questionAsked: described(
    'The agent asks the user structured questions (AskUserQuestion).',
    variant('questionAsked', { question: QuestionRequestSchema }),
  ),
  questionAnswered: described(
    'A question request was answered or dismissed.',
    variant('questionAnswered', { questionId: id(), response: QuestionResponseSchema }),
  ),
  planProposed: described(
    'The agent proposes a plan to leave plan mode (ExitPlanMode).',
    variant('planProposed', { plan: PlanProposalSchema }),
  ),
  planResolved: described(
    'A plan was approved or rejected.',
    variant('planResolved', { planId: id(), decision: PlanDecisionSchema }),
  ),
  todosUpdated: described(
    'The todo list changed (TodoWrite); it survives compaction.',
    variant('todosUpdated', { todos: arr(TodoItemSchema) }),
  ),
  modeChanged: described(
    'The permission mode changed.',
    variant('modeChanged', { mode: PermissionModeSchema }),
  ),
  modelChanged: described('The main model changed.', variant('modelChanged', { model: str() })),
  titleChanged: described('The session title changed.', variant('titleChanged', { title: str() })),
  agentUpdated: described("A subagent's state changed.", variant('agentUpdated', { agent: AgentInfoSchema })),
  jobUpdated: described(
    "A background job's state or output changed (throttled per job; an exit always emits).",
    variant('jobUpdated', { job: JobInfoSchema }),
  ),
  checkRecorded: described(
    'A check ran and its evidence was recorded.',
    variant('checkRecorded', { record: CheckRecordSchema }),
  ),
  checkpointCreated: described(
    'The working tree was snapshotted before a user turn.',
    variant('checkpointCreated', { checkpoint: CheckpointSchema }),
  ),
  rewound: described(
    'The session was rewound to before a user message; unless the scope is `code`, later messages leave both transcripts.',
    variant(
      'rewound',
      { messageId: id(), scope: RewindScopeSchema },
      {
        restoredFiles: arr(str(), { description: 'Paths the code rewind changed.' }),
        removedMessageIds: arr(str(), { description: 'Messages the conversation rewind dropped.' }),
        checkpointId: str({ minLength: 1, description: 'The checkpoint a code rewind restored.' }),
        skippedFiles: arr(str(), {
          description:
            'Files the agent changed that were edited afterwards and cannot be merged (binary, created or removed by the agent): kept as they are (rewind with `includeEdited` reverts them).',
        }),
        leftAloneFiles: arr(str(), {
          description: 'Files changed since the target that the agent did not change: kept as they are.',
        }),
        mergedFiles: arr(str(), {
          description:
            "Files the agent changed that were edited afterwards: the agent's hunks were reverted and the later edits kept (a three-way merge).",
        }),
        conflictFiles: arr(RewindConflictSchema, {
          description:
            "Merged files where a later edit overlaps the agent's change: those regions were left as they are (rewind the file with `includeEdited` and `only` to revert it whole).",
        }),
      },
    ),
  ),
  rewindPreviewed: described(
    'What a rewind would do (the `rewind` command with `dryRun`); nothing was changed.',
    variant(
      'rewindPreviewed',
      {
        messageId: id(),
        scope: RewindScopeSchema,
        restoreFiles: arr(str(), {
          description: 'Files the code rewind would revert (written back or removed).',
        }),
        skippedFiles: arr(str(), {
          description:
            'Files the agent changed that were edited afterwards and cannot be merged: would be kept.',
        }),
        leftAloneFiles: arr(str(), {
          description: 'Files changed since that the agent did not change: would be kept.',
        }),
        removedMessageIds: arr(str(), { description: 'Messages the conversation rewind would drop.' }),
      },
      {
        checkpointId: str({ minLength: 1, description: 'The checkpoint a code rewind would restore.' }),
        mergeFiles: arr(str(), {
          description: 'Edited files whose agent hunks would be reverted, the later edits kept.',
        }),
        conflictFiles: arr(RewindConflictSchema, {
          description:
            "Regions of merged files where a later edit overlaps the agent's change: would be left.",
        }),
        changes: arr(obj({ path: str(), unifiedDiff: str() }), {
          description: 'The hunks the rewind would write, per file (the file now against the result).',
        }),
      },
    ),
  ),
  rewindUndone: described(
    'The last code rewind was undone (`undoRewind`): its files were put back as they were just before it.',
    variant('rewindUndone', {
      restoredFiles: arr(str(), { description: 'Files put back.' }),
      skippedFiles: arr(str(), { description: 'Files edited since the rewind: kept as they are.' }),
    }),
  ),
  compactionStarted: described(
    'Summary compaction of the main agent began ("Compacting context…").',
    variant('compactionStarted', { trigger: CompactionTriggerSchema }),
  ),
  compacted: described(
    'Summary compaction finished; the marker is the "Context compacted" divider. Messages before `firstKeptMessageId` left the working set and `summary` stands in for them; the display transcript keeps everything.',
    variant('compacted', {
      marker: CompactionMarkerSchema,
      summary: MessageSchema,
      firstKeptMessageId: id(),
    }),
  ),
  commandOutput: described(
    'Output of an informational built-in command (`/cost`, `/context`, …).',
    variant('commandOutput', { name: str(), markdown: str() }),
  ),
  trustRequired: described(
    'The project sets trust-gated categories that stay withheld until the user trusts it.',
    variant('trustRequired', {
      projectRoot: str(),
      categories: arr(str(), { description: 'Withheld categories, e.g. hooks, mcp, permissions.allow.' }),
    }),
  ),
  notice: described(
    'Something the user should know: an unknown command, a failed summary, a missing sandbox.',
    variant('notice', { level: NoticeLevelSchema, message: str() }, { code: str() }),
  ),
  routeChosen: described(
    'The route seam chose an effort or model.',
    variant('routeChosen', { route: RouteSchema }),
  ),
  taskViewApplied: described(
    'A task view replaced the working set (or restored the full history).',
    variant('taskViewApplied', { view: TaskViewSchema }),
  ),
  completionClaimUnchecked: described(
    'The final answer claims completion that no check backs.',
    variant('completionClaimUnchecked', { claim: CompletionClaimSchema }),
  ),
  suggested: described(
    'A decision use proposes something the user may accept.',
    variant('suggested', { suggestion: SuggestionSchema }),
  ),
  suggestionResolved: described(
    'A suggestion was accepted or dismissed.',
    variant('suggestionResolved', { suggestionId: id(), accepted: bool() }),
  ),
  turnToneJudged: described(
    "The turn-end seam judged the user's tone in a turn.",
    variant('turnToneJudged', { turnId: id(), tone: TurnToneSchema }),
  ),
  urgencyScored: described(
    'The attention seam scored how urgent an item is.',
    variant('urgencyScored', { urgency: UrgencySchema }),
  ),
  decisionTraced: described(
    'One decision use was consulted at a seam (journaled; `/decisions` lists them).',
    variant('decisionTraced', { trace: DecisionTraceSchema }),
  ),
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
