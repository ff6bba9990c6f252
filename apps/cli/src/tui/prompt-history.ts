import { appendFile, mkdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'

/** How many prompts of a project ↑ can recall. */
export const HISTORY_LIMIT = 500

/** `<dataDir>/prompt-history.jsonl`: every prompt sent from the chat, one JSON line each, with its project. */
export function historyFile(dataDir: string): string {
  return join(dataDir, 'prompt-history.jsonl')
}

/** The project's prompts, oldest first (at most {@link HISTORY_LIMIT}); a missing or damaged file is empty. */
export async function loadPromptHistory(dataDir: string, projectRoot: string): Promise<string[]> {
  let text: string
  try {
    text = await readFile(historyFile(dataDir), 'utf8')
  } catch {
    return []
  }
  const entries: string[] = []
  for (const line of text.split('\n')) {
    if (line === '') continue
    try {
      const value = JSON.parse(line) as { project?: unknown; text?: unknown }
      if (value.project === projectRoot && typeof value.text === 'string' && entries.at(-1) !== value.text)
        entries.push(value.text)
    } catch {
      // A line cut by a crash is skipped; the others still recall.
    }
  }
  return entries.slice(-HISTORY_LIMIT)
}

/** Appends a sent prompt; failing to record history never disturbs the chat, so errors are swallowed. */
export async function appendPromptHistory(dataDir: string, projectRoot: string, text: string): Promise<void> {
  if (text.trim() === '') return
  const file = historyFile(dataDir)
  try {
    await mkdir(dirname(file), { recursive: true })
    await appendFile(
      file,
      `${JSON.stringify({ project: projectRoot, text, at: new Date().toISOString() })}\n`,
      {
        mode: 0o600,
      },
    )
  } catch {
    // An unwritable data folder already gets its own notice from the session store.
  }
}
