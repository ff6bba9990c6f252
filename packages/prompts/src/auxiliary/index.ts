import { renderTemplate } from '../template.js'
import compact from './compact.md'
import compactFocus from './compact-focus.md'
import webFetchExtract from './web-fetch-extract.md'

/** The instructions the fast model gets to summarize older history (compaction). */
export const COMPACT_PROMPT: string = compact.trim()

/** The template added to the compaction prompt for `/compact <focus>`; variable `focus`. */
export const COMPACT_FOCUS_TEMPLATE: string = compactFocus.trim()

/** The compaction prompt, with the user's focus appended when `/compact` was given one. */
export function compactPrompt(focus?: string): string {
  const trimmed = focus?.trim()
  if (!trimmed) return COMPACT_PROMPT
  return `${COMPACT_PROMPT}\n\n${renderTemplate(COMPACT_FOCUS_TEMPLATE, { focus: trimmed })}`
}

/** What the fast model gets to answer a WebFetch prompt about a page; variables `url`, `content`, `prompt`. */
export const WEB_FETCH_EXTRACT_TEMPLATE: string = webFetchExtract.trim()
