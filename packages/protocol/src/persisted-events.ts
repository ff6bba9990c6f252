/**
 * Which events are journaled (spec 000 "Persistence"). A persisted event is appended to the session
 * log before it is published, and replay rebuilds the session from those events alone; streaming
 * parts, progress and live-only notices and decisions are never written.
 */

import type { EngineEvent, EventType } from './events.js'

/** The `type` of every event that is journaled. */
export type PersistedEventType =
  | 'messageRecorded'
  | 'turnStarted'
  | 'turnFinished'
  | 'todosUpdated'
  | 'planProposed'
  | 'planResolved'
  | 'questionAsked'
  | 'questionAnswered'
  | 'approvalRequested'
  | 'approvalResolved'
  | 'agentUpdated'
  | 'checkRecorded'
  | 'checkpointCreated'
  | 'compacted'
  | 'rewound'
  | 'modeChanged'
  | 'modelChanged'
  | 'titleChanged'
  | 'usageUpdated'
  | 'taskViewApplied'
  | 'decisionTraced'

/** An event that is journaled before it is published. */
export type PersistedEvent = Extract<EngineEvent, { type: PersistedEventType }>
/** An event that is only published (streaming parts, progress, notices, decisions). */
export type LiveEvent = Exclude<EngineEvent, PersistedEvent>

// The two branches below only compile when each `case` list matches its side of the union, so the
// union above and the switch cannot drift apart; `never` makes a new event type a compile error here.
const persisted = (_type: PersistedEventType) => true
const live = (_type: LiveEvent['type']) => false

/** The one rule of what is journaled: true for a {@link PersistedEvent}'s type. */
export function isPersistedType(type: EventType): type is PersistedEventType {
  switch (type) {
    case 'messageRecorded':
    case 'turnStarted':
    case 'turnFinished':
    case 'todosUpdated':
    case 'planProposed':
    case 'planResolved':
    case 'questionAsked':
    case 'questionAnswered':
    case 'approvalRequested':
    case 'approvalResolved':
    case 'agentUpdated':
    case 'checkRecorded':
    case 'checkpointCreated':
    case 'compacted':
    case 'rewound':
    case 'modeChanged':
    case 'modelChanged':
    case 'titleChanged':
    case 'usageUpdated':
    case 'taskViewApplied':
    case 'decisionTraced':
      return persisted(type)
    case 'sessionOpened':
    case 'retrying':
    case 'textStart':
    case 'textDelta':
    case 'textEnd':
    case 'thinkingStart':
    case 'thinkingDelta':
    case 'thinkingEnd':
    case 'steeringQueued':
    case 'toolStarted':
    case 'toolProgress':
    case 'toolFinished':
    case 'jobUpdated':
    case 'compactionStarted':
    case 'rewindPreviewed':
    case 'rewindUndone':
    case 'commandOutput':
    case 'trustRequired':
    case 'notice':
    case 'routeChosen':
    case 'completionClaimUnchecked':
    case 'suggested':
    case 'suggestionResolved':
    case 'turnToneJudged':
    case 'urgencyScored':
      return live(type)
    default: {
      const unreachable: never = type
      throw new Error(`unknown event type ${String(unreachable)}`)
    }
  }
}

/** Whether `event` is journaled before it is published (see {@link isPersistedType}). */
export function isPersistedEvent(event: EngineEvent): event is PersistedEvent {
  return isPersistedType(event.type)
}
