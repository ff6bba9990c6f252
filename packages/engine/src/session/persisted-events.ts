import type { EventType } from '@z-engine/protocol'

/**
 * The exhaustive decision of which events are journaled (spec 000 "Persistence"): a persisted event
 * is published only after its log record is appended. Streaming deltas, progress and live-only
 * decision events are not persisted (replay rebuilds state from records, not from events).
 */
export function isPersistedEvent(type: EventType): boolean {
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
      return true
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
    case 'commandOutput':
    case 'trustRequired':
    case 'notice':
    case 'routeChosen':
    case 'completionClaimUnchecked':
    case 'suggested':
    case 'suggestionResolved':
    case 'turnToneJudged':
    case 'urgencyScored':
      return false
    default: {
      const unreachable: never = type
      throw new Error(`unknown event type ${String(unreachable)}`)
    }
  }
}
