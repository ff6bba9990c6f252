import type { ChatState, LiveRows, ToolCard, TranscriptEntry } from './view-model.js'

/** A transcript row before it gets its key. */
export type NewEntry = DistributiveOmit<TranscriptEntry, 'key'>

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

/** Adds rows to the finished transcript, each with the next key. */
export function append(state: ChatState, ...entries: NewEntry[]): ChatState {
  let nextKey = state.nextKey
  const added = entries.map((entry) => ({ ...entry, key: `k${nextKey++}` }) as TranscriptEntry)
  return { ...state, finished: [...state.finished, ...added], nextKey }
}

/** The state with its live rows changed by `change` (on copies of the maps). */
export function withLive(state: ChatState, change: (live: LiveRows) => void): ChatState {
  const live: LiveRows = {
    parts: new Map(state.live.parts),
    tools: new Map(state.live.tools),
    agents: new Map(state.live.agents),
  }
  change(live)
  return { ...state, live }
}

/** Moves a finished streaming part (text or thinking) from the live area to the transcript. */
export function finishPart(state: ChatState, id: string): ChatState {
  const part = state.live.parts.get(id)
  if (!part) return state
  const without = withLive(state, (live) => live.parts.delete(id))
  if (part.text.trim() === '') return without
  return append(without, { kind: part.kind, text: part.text })
}

/** Changes a live tool card, when it is still live. */
export function updateTool(state: ChatState, id: string, change: (card: ToolCard) => ToolCard): ChatState {
  const card = state.live.tools.get(id)
  if (!card) return state
  return withLive(state, (live) => live.tools.set(id, change(card)))
}
