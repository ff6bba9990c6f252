import type { EventEnvelope } from '@z-engine/protocol'
import { reduceEvent } from './reduce-event.js'
import type { NewEntry } from './transcript-state.js'
import type { ChatState, TranscriptEntry } from './view-model.js'

/** Everything that changes the chat screen's state. */
export type ChatAction =
  /** An engine event; events of another session (one `/clear` closed) are ignored. */
  | { type: 'event'; envelope: EventEnvelope }
  /** A row the CLI itself adds (`/help`, `/sessions`, a failed command). */
  | { type: 'local'; entry: NewEntry }
  /** A new session's starting state (`/clear`). */
  | { type: 'reset'; state: ChatState }
  /** The chat took the rewind's conflicting files to ask about them. */
  | { type: 'conflictsTaken' }

/** The screen's reducer: engine events through `reduceEvent`, plus the CLI's own rows. */
export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'event':
      return action.envelope.sessionId === state.sessionId ? reduceEvent(state, action.envelope) : state
    case 'local': {
      const entry = { ...action.entry, key: `k${state.nextKey}` } as TranscriptEntry
      return { ...state, finished: [...state.finished, entry], nextKey: state.nextKey + 1 }
    }
    case 'reset':
      return action.state
    case 'conflictsTaken':
      return { ...state, rewindConflicts: [] }
    default: {
      const unreachable: never = action
      return unreachable
    }
  }
}
