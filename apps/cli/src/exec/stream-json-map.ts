import type { EventEnvelope, EventOf, EventType } from '@z-engine/protocol'
import { createDenialTracker } from './denials.js'
import { type LineContext, type LineTable, type MapperState, NO_LINES } from './stream-json-lines.js'
import { NOTICE_LINES } from './stream-json-notice-lines.js'
import { PERMISSION_LINES } from './stream-json-permission-lines.js'
import { SESSION_LINES } from './stream-json-session-lines.js'
import { TOOL_LINES } from './stream-json-tool-lines.js'
import { TURN_LINES } from './stream-json-turn-lines.js'
import type { StreamJsonEvent } from './stream-json-types.js'

export { snakeUsage } from './stream-json-session-lines.js'
export { streamOutcome, streamVerification } from './stream-json-turn-lines.js'

/**
 * Every event type's lines, one family per file. Typed as `LineTable`, so an event type added to the
 * protocol fails to compile until a family maps it (or it joins the silent ones below).
 */
const LINES: LineTable = {
  ...SESSION_LINES,
  ...TOOL_LINES,
  ...PERMISSION_LINES,
  ...NOTICE_LINES,
  ...TURN_LINES,
  // Live detail a headless consumer does not need (or that other lines already carry).
  turnStarted: NO_LINES,
  textStart: NO_LINES,
  textEnd: NO_LINES,
  thinkingStart: NO_LINES,
  thinkingEnd: NO_LINES,
  steeringQueued: NO_LINES,
  toolProgress: NO_LINES,
  questionAsked: NO_LINES,
  questionAnswered: NO_LINES,
  planProposed: NO_LINES,
  planResolved: NO_LINES,
  todosUpdated: NO_LINES,
  modeChanged: NO_LINES,
  modelChanged: NO_LINES,
  titleChanged: NO_LINES,
  agentUpdated: NO_LINES,
  jobUpdated: NO_LINES,
  checkRecorded: NO_LINES,
  compactionStarted: NO_LINES,
  compacted: NO_LINES,
  rewindPreviewed: NO_LINES,
  rewindUndone: NO_LINES,
  commandOutput: NO_LINES,
  routeChosen: NO_LINES,
  decisionTraced: NO_LINES,
  taskViewApplied: NO_LINES,
  suggested: NO_LINES,
  suggestionResolved: NO_LINES,
  turnToneJudged: NO_LINES,
  urgencyScored: NO_LINES,
}

// The type is passed apart from the event so the compiler ties the table's entry to the event's type.
function linesOf<T extends EventType>(type: T, event: EventOf<T>, line: LineContext): StreamJsonEvent[] {
  return LINES[type](event, line)
}

/**
 * Maps protocol envelopes to stream-json lines. No I/O: the only state is what a line needs from an
 * earlier event (a tool call's status until its result message, the turn's last assistant text for
 * `final`), so the same envelopes always map to the same lines.
 */
export function createStreamJsonMapper(): (envelope: EventEnvelope) => StreamJsonEvent[] {
  const state: MapperState = {
    finished: new Map(),
    asked: new Set(),
    lastAssistantText: '',
    denials: createDenialTracker(),
  }
  return (envelope) => {
    state.denials.observe(envelope)
    const common = {
      session_id: envelope.sessionId,
      ...(envelope.agentId !== undefined ? { agent_id: envelope.agentId } : {}),
    }
    return linesOf(envelope.event.type, envelope.event, { common, agentId: envelope.agentId, state })
  }
}
