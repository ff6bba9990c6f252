import { appendFile, mkdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { HistoryEntry } from './input-history.js'

/** How many prompts of a project ↑ can recall. */
export const HISTORY_LIMIT = 500

/** `<dataDir>/prompt-history.jsonl`: every prompt sent from the chat, one JSON line each, with its project. */
export function historyFile(dataDir: string): string {
  return join(dataDir, 'prompt-history.jsonl')
}

/**
 * The project's prompts, oldest first (at most {@link HISTORY_LIMIT}), as typed: a large paste as
 * its placeholder with the pasted text behind it. A missing or damaged file is empty.
 */
export async function loadPromptHistory(dataDir: string, projectRoot: string): Promise<HistoryEntry[]> {
  let text: string
  try {
    text = await readFile(historyFile(dataDir), 'utf8')
  } catch {
    return []
  }
  const entries: HistoryEntry[] = []
  for (const line of text.split('\n')) {
    if (line === '') continue
    try {
      const value = JSON.parse(line) as {
        project?: unknown
        text?: unknown
        display?: unknown
        pastes?: unknown
      }
      if (value.project !== projectRoot || typeof value.text !== 'string') continue
      const entry = typedEntry(value.display, value.pastes) ?? { text: value.text, pastes: [] }
      if (entries.at(-1)?.text !== entry.text || entry.pastes.length > 0) entries.push(entry)
    } catch {
      // A line cut by a crash is skipped; the others still recall.
    }
  }
  return entries.slice(-HISTORY_LIMIT)
}

/** The recorded composer text and its pastes, when both are well formed. */
function typedEntry(display: unknown, pastes: unknown): HistoryEntry | undefined {
  if (typeof display !== 'string' || !Array.isArray(pastes)) return undefined
  const kept: HistoryEntry['pastes'][number][] = []
  for (const pasted of pastes as unknown[]) {
    const { id, placeholder, text } = (pasted ?? {}) as {
      id?: unknown
      placeholder?: unknown
      text?: unknown
    }
    if (typeof id !== 'number' || typeof placeholder !== 'string' || typeof text !== 'string')
      return undefined
    kept.push({ id, placeholder, text })
  }
  return { text: display, pastes: kept }
}

/**
 * Appends a sent prompt (`text`, what was sent); `typed` is the composer's text when it held paste
 * placeholders, kept so recall shows them. Failing to record history never disturbs the chat, so
 * errors are swallowed.
 */
export async function appendPromptHistory(
  dataDir: string,
  projectRoot: string,
  text: string,
  typed?: HistoryEntry,
): Promise<void> {
  if (text.trim() === '') return
  const file = historyFile(dataDir)
  try {
    await mkdir(dirname(file), { recursive: true })
    await appendFile(
      file,
      `${JSON.stringify({
        project: projectRoot,
        text,
        ...(typed !== undefined && typed.pastes.length > 0
          ? { display: typed.text, pastes: typed.pastes }
          : {}),
        at: new Date().toISOString(),
      })}\n`,
      {
        mode: 0o600,
      },
    )
  } catch {
    // An unwritable data folder already gets its own notice from the session store.
  }
}
