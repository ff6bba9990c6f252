/** A large paste shown as one placeholder in the prompt and sent whole. */
export interface PastedText {
  id: number
  placeholder: string
  text: string
}

/**
 * The prompt being written: its text (newlines included), the cursor as an index into it, and the
 * large pastes its placeholders stand for. Every operation is pure and returns a new buffer.
 */
export interface PromptBuffer {
  text: string
  cursor: number
  pastes: readonly PastedText[]
}

/** An empty prompt. */
export const EMPTY_BUFFER: PromptBuffer = { text: '', cursor: 0, pastes: [] }

/** A paste with more lines than this, or more characters, is collapsed to a placeholder. */
export const PASTE_COLLAPSE_LINES = 10
/** See {@link PASTE_COLLAPSE_LINES}. */
export const PASTE_COLLAPSE_CHARS = 1000

/** A buffer holding `text` with the cursor at its end. */
export function bufferOf(text: string): PromptBuffer {
  return { text, cursor: text.length, pastes: [] }
}

/** Inserts text at the cursor. */
export function insert(buffer: PromptBuffer, text: string): PromptBuffer {
  const { text: value, cursor } = buffer
  return {
    ...buffer,
    text: value.slice(0, cursor) + text + value.slice(cursor),
    cursor: cursor + text.length,
  }
}

/**
 * Inserts pasted text whole (line endings made `\n`); a large paste becomes a
 * `[Pasted text #N +L lines]` placeholder whose text is restored by {@link expandPastes}.
 */
export function paste(buffer: PromptBuffer, raw: string): PromptBuffer {
  const text = raw.replace(/\r\n?/g, '\n')
  // A paste of 30 lines that ends with its line break is 30 lines, not 31.
  const lines = text.replace(/\n$/, '').split('\n').length
  if (lines <= PASTE_COLLAPSE_LINES && text.length <= PASTE_COLLAPSE_CHARS) return insert(buffer, text)
  const id = (buffer.pastes.at(-1)?.id ?? 0) + 1
  const placeholder =
    lines > 1 ? `[Pasted text #${id} +${lines} lines]` : `[Pasted text #${id} ${text.length} chars]`
  return { ...insert(buffer, placeholder), pastes: [...buffer.pastes, { id, placeholder, text }] }
}

/** The text to send: every placeholder still in the prompt replaced by what was pasted. */
export function expandPastes(buffer: PromptBuffer): string {
  let text = buffer.text
  for (const pasted of buffer.pastes) text = text.split(pasted.placeholder).join(pasted.text)
  return text
}

function previousIndex(text: string, index: number): number {
  if (index <= 0) return 0
  const code = text.charCodeAt(index - 1)
  // Step over a whole surrogate pair so an emoji is never split.
  return code >= 0xdc00 && code <= 0xdfff && index >= 2 ? index - 2 : index - 1
}

function nextIndex(text: string, index: number): number {
  if (index >= text.length) return text.length
  const code = text.charCodeAt(index)
  return code >= 0xd800 && code <= 0xdbff && index + 1 < text.length ? index + 2 : index + 1
}

function lineStart(text: string, index: number): number {
  return text.lastIndexOf('\n', index - 1) + 1
}

function lineEnd(text: string, index: number): number {
  const end = text.indexOf('\n', index)
  return end === -1 ? text.length : end
}

/** The placeholder the cursor sits at the end or inside of, so one key removes it whole. */
function placeholderBefore(buffer: PromptBuffer): { start: number; end: number } | undefined {
  for (const pasted of buffer.pastes) {
    let from = 0
    for (;;) {
      const start = buffer.text.indexOf(pasted.placeholder, from)
      if (start === -1) break
      const end = start + pasted.placeholder.length
      if (buffer.cursor > start && buffer.cursor <= end) return { start, end }
      from = end
    }
  }
  return undefined
}

function remove(buffer: PromptBuffer, start: number, end: number): PromptBuffer {
  const text = buffer.text.slice(0, start) + buffer.text.slice(end)
  const pastes = buffer.pastes.filter((pasted) => text.includes(pasted.placeholder))
  return { text, cursor: start, pastes }
}

/** Backspace: the character before the cursor (a paste placeholder goes whole). */
export function backspace(buffer: PromptBuffer): PromptBuffer {
  const placeholder = placeholderBefore(buffer)
  if (placeholder) return remove(buffer, placeholder.start, placeholder.end)
  return remove(buffer, previousIndex(buffer.text, buffer.cursor), buffer.cursor)
}

/** Delete (and Ctrl-D on a non-empty prompt): the character under the cursor. */
export function deleteForward(buffer: PromptBuffer): PromptBuffer {
  return remove(buffer, buffer.cursor, nextIndex(buffer.text, buffer.cursor))
}

/** ← */
export function left(buffer: PromptBuffer): PromptBuffer {
  return { ...buffer, cursor: previousIndex(buffer.text, buffer.cursor) }
}

/** → */
export function right(buffer: PromptBuffer): PromptBuffer {
  return { ...buffer, cursor: nextIndex(buffer.text, buffer.cursor) }
}

/** Home / Ctrl-A: the start of the cursor's line. */
export function home(buffer: PromptBuffer): PromptBuffer {
  return { ...buffer, cursor: lineStart(buffer.text, buffer.cursor) }
}

/** End / Ctrl-E: the end of the cursor's line. */
export function end(buffer: PromptBuffer): PromptBuffer {
  return { ...buffer, cursor: lineEnd(buffer.text, buffer.cursor) }
}

const WORD = /[\p{L}\p{N}_]/u

/** Alt-B / Ctrl-←: to the start of the word before the cursor. */
export function wordLeft(buffer: PromptBuffer): PromptBuffer {
  return { ...buffer, cursor: wordStartBefore(buffer.text, buffer.cursor) }
}

/** Alt-F / Ctrl-→: to the end of the word after the cursor. */
export function wordRight(buffer: PromptBuffer): PromptBuffer {
  const { text } = buffer
  let index = buffer.cursor
  while (index < text.length && !WORD.test(text[index]!)) index++
  while (index < text.length && WORD.test(text[index]!)) index++
  return { ...buffer, cursor: index }
}

function wordStartBefore(text: string, cursor: number): number {
  let index = cursor
  while (index > 0 && !WORD.test(text[index - 1]!)) index--
  while (index > 0 && WORD.test(text[index - 1]!)) index--
  return index
}

/** Ctrl-W: the whitespace-separated word before the cursor (as a shell does). */
export function deleteWordBefore(buffer: PromptBuffer): PromptBuffer {
  const { text, cursor } = buffer
  let index = cursor
  while (index > 0 && /\s/.test(text[index - 1]!)) index--
  while (index > 0 && !/\s/.test(text[index - 1]!)) index--
  return remove(buffer, index, cursor)
}

/** Alt-Backspace: the word before the cursor, stopping at punctuation. */
export function deleteWordLeft(buffer: PromptBuffer): PromptBuffer {
  return remove(buffer, wordStartBefore(buffer.text, buffer.cursor), buffer.cursor)
}

/** Ctrl-K: from the cursor to the end of its line (at a line's end, the line break). */
export function killToEnd(buffer: PromptBuffer): PromptBuffer {
  const stop = lineEnd(buffer.text, buffer.cursor)
  return remove(buffer, buffer.cursor, stop === buffer.cursor ? nextIndex(buffer.text, stop) : stop)
}

/** Ctrl-U: from the start of the cursor's line to the cursor (at a line's start, the line break). */
export function killToStart(buffer: PromptBuffer): PromptBuffer {
  const start = lineStart(buffer.text, buffer.cursor)
  return remove(buffer, start === buffer.cursor ? previousIndex(buffer.text, start) : start, buffer.cursor)
}

/**
 * ↑/↓ inside a multi-line prompt: the same column on the line above or below, or `undefined` on
 * the first/last line (where the keys recall history instead).
 */
export function verticalMove(buffer: PromptBuffer, direction: -1 | 1): PromptBuffer | undefined {
  const { text, cursor } = buffer
  const start = lineStart(text, cursor)
  const column = cursor - start
  if (direction === -1) {
    if (start === 0) return undefined
    const above = lineStart(text, start - 1)
    return { ...buffer, cursor: Math.min(above + column, start - 1) }
  }
  const stop = lineEnd(text, cursor)
  if (stop === text.length) return undefined
  const below = stop + 1
  return { ...buffer, cursor: Math.min(below + column, lineEnd(text, below)) }
}

/** The `@path` or `/command` token that ends at the cursor, for completion. */
export function tokenAtCursor(buffer: PromptBuffer): { start: number; token: string } | undefined {
  const before = buffer.text.slice(0, buffer.cursor)
  const match = /(?:^|\s)(@[^\s]*)$/.exec(before)
  if (!match) return undefined
  const token = match[1]!
  return { start: buffer.cursor - token.length, token }
}

/** Replaces the token that ends at the cursor (completion). */
export function replaceToken(buffer: PromptBuffer, start: number, replacement: string): PromptBuffer {
  const text = buffer.text.slice(0, start) + replacement + buffer.text.slice(buffer.cursor)
  return { ...buffer, text, cursor: start + replacement.length }
}
