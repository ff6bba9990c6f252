import type { PastedText } from './prompt-buffer.js'

/**
 * One sent prompt as it was in the composer: its text with any `[Pasted text #N …]` placeholders,
 * and what they stand for, so recall brings a large paste back as one placeholder, not its lines.
 */
export interface HistoryEntry {
  text: string
  pastes: readonly PastedText[]
}

/** What was sent from the composer, for ↑/↓ recall; `index === entries.length` is the new line. */
export interface InputHistory {
  entries: HistoryEntry[]
  index: number
  /** The prompt being written before recall started, restored when ↓ goes past the newest entry. */
  draft: HistoryEntry
}

const EMPTY_ENTRY: HistoryEntry = { text: '', pastes: [] }

/** An empty history. */
export const EMPTY_HISTORY: InputHistory = { entries: [], index: 0, draft: EMPTY_ENTRY }

/** A history holding `entries` (oldest first), not recalling. */
export function historyOf(entries: readonly HistoryEntry[]): InputHistory {
  return { entries: [...entries], index: entries.length, draft: EMPTY_ENTRY }
}

/** The entry for a prompt: only the pastes whose placeholder is still in its text. */
export function entryOf(text: string, pastes: readonly PastedText[] = []): HistoryEntry {
  return { text, pastes: pastes.filter((pasted) => text.includes(pasted.placeholder)) }
}

/** Records a sent prompt (not twice in a row) and leaves recall. */
export function remember(history: InputHistory, entry: HistoryEntry): InputHistory {
  const last = history.entries.at(-1)
  const entries =
    entry.text.trim() === '' || (last !== undefined && sameEntry(last, entry))
      ? history.entries
      : [...history.entries, entry]
  return { entries, index: entries.length, draft: EMPTY_ENTRY }
}

function sameEntry(a: HistoryEntry, b: HistoryEntry): boolean {
  return (
    a.text === b.text &&
    a.pastes.length === b.pastes.length &&
    a.pastes.every((pasted, index) => pasted.text === b.pastes[index]?.text)
  )
}

/** Moves through the history: `-1` is older (↑), `1` newer (↓). Returns the prompt to show. */
export function recall(
  history: InputHistory,
  current: HistoryEntry,
  direction: -1 | 1,
): { history: InputHistory; shown: HistoryEntry } {
  const index = Math.max(0, Math.min(history.entries.length, history.index + direction))
  if (index === history.index) return { history, shown: current }
  const draft = history.index === history.entries.length ? current : history.draft
  const shown = index === history.entries.length ? draft : (history.entries[index] ?? EMPTY_ENTRY)
  return { history: { ...history, index, draft }, shown }
}
