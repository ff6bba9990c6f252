/** Types for moving through a session's history: checkpoints, rewinds, compaction, task views. */

import { MessageSchema } from './message.js'
import { arr, bool, enums, type Infer, int, obj, str } from './schema/builder.js'

/** Schema of {@link Checkpoint}. */
export const CheckpointSchema = obj(
  {
    id: str({ minLength: 1 }),
    messageId: str({ description: 'The user message this snapshot precedes.' }),
    commit: str({ description: 'The shadow repository commit holding the working tree.' }),
  },
  { turnId: str() },
)
/** A snapshot of the working tree taken before a user turn (shadow git repository). */
export type Checkpoint = Infer<typeof CheckpointSchema>

/** Every rewind scope. */
export const REWIND_SCOPES = ['code', 'conversation', 'both'] as const
/** Schema of {@link RewindScope}. */
export const RewindScopeSchema = enums(REWIND_SCOPES)
/** What a rewind restores: files, the conversation, or both. */
export type RewindScope = Infer<typeof RewindScopeSchema>

/** Schema of {@link CompactionTrigger}. */
export const CompactionTriggerSchema = enums(['auto', 'manual'])
/** Why compaction ran: context pressure (`auto`) or `/compact` / Compact now (`manual`). */
export type CompactionTrigger = Infer<typeof CompactionTriggerSchema>

/** Schema of {@link CompactionMarker}. */
export const CompactionMarkerSchema = obj(
  {
    id: str({ minLength: 1 }),
    trigger: CompactionTriggerSchema,
    tokensBefore: int({ minimum: 0 }),
    tokensAfter: int({ minimum: 0 }),
    messagesSummarized: int({ minimum: 0 }),
  },
  { focus: str() },
)
/** The "Context compacted" divider: sizes before and after. */
export type CompactionMarker = Infer<typeof CompactionMarkerSchema>

/** Schema of {@link TaskView}. */
export const TaskViewSchema = obj(
  {
    id: str({ minLength: 1 }),
    keptMessageIds: arr(str(), { description: 'Messages kept in the working set, in order.' }),
    restored: bool({ description: 'True when this view brings the full history back.' }),
  },
  { indexMessage: MessageSchema },
)
/** A reduced working set chosen by the task-view decision use (decisions_task_view). */
export type TaskView = Infer<typeof TaskViewSchema>
