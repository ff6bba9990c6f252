/** What was sent from the composer, for ↑/↓ recall; `index === entries.length` is the new line. */
export interface InputHistory {
  entries: string[]
  index: number
  /** The line being written before recall started, restored when ↓ goes past the newest entry. */
  draft: string
}

/** An empty history. */
export const EMPTY_HISTORY: InputHistory = { entries: [], index: 0, draft: '' }

/** Records a sent line (not twice in a row) and leaves recall. */
export function remember(history: InputHistory, line: string): InputHistory {
  const entries =
    line.trim() === '' || history.entries.at(-1) === line ? history.entries : [...history.entries, line]
  return { entries, index: entries.length, draft: '' }
}

/** Moves through the history: `-1` is older (↑), `1` newer (↓). Returns the text to show. */
export function recall(
  history: InputHistory,
  text: string,
  direction: -1 | 1,
): { history: InputHistory; text: string } {
  const index = Math.max(0, Math.min(history.entries.length, history.index + direction))
  if (index === history.index) return { history, text }
  const draft = history.index === history.entries.length ? text : history.draft
  const shown = index === history.entries.length ? draft : (history.entries[index] ?? '')
  return { history: { ...history, index, draft }, text: shown }
}
