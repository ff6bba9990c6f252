import type { EventOf, EventType } from '@z-engine/protocol'
import type { createDenialTracker } from './denials.js'
import type { StreamJsonEvent } from './stream-json-types.js'

/** What a tool call's `toolFinished` said, held until its result message arrives. */
export interface FinishedCall {
  name: string
  status: 'ok' | 'error' | 'denied' | 'cancelled'
  durationMs: number
  summary?: string
}

/** What a line needs from earlier events of the run; one per mapper. */
export interface MapperState {
  /** Tool calls finished whose result message has not arrived yet. */
  finished: Map<string, FinishedCall>
  /** Tool calls an approval was asked for (their denial is the user's, not the gate's). */
  asked: Set<string>
  /** The main agent's last assistant text of the turn: `final`'s `result`. */
  lastAssistantText: string
  denials: ReturnType<typeof createDenialTracker>
}

/** The fields every line of an envelope carries. */
export interface CommonFields {
  session_id: string
  agent_id?: string
}

/** What a family's mapper is given besides the event. */
export interface LineContext {
  common: CommonFields
  /** The subagent the event is of; undefined for the main agent. */
  agentId: string | undefined
  state: MapperState
}

/** The lines one event type maps to. */
export type LineMapper<T extends EventType> = (event: EventOf<T>, line: LineContext) => StreamJsonEvent[]

/** A mapper for every event type: the compiler fails on an event type no family maps. */
export type LineTable = { [T in EventType]: LineMapper<T> }

/** Events a headless consumer does not need (or that other lines already carry). */
export const NO_LINES = (): StreamJsonEvent[] => []
