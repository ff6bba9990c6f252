import type { Key } from 'ink'
import {
  backspace,
  deleteForward,
  deleteWordBefore,
  deleteWordLeft,
  end,
  home,
  insert,
  killToEnd,
  killToStart,
  left,
  type PromptBuffer,
  paste,
  right,
  verticalMove,
  wordLeft,
  wordRight,
} from './prompt-buffer.js'

/** One thing the terminal sent while the prompt has the focus. */
export type PromptInput =
  /** A key as Ink parsed it, with the raw sequence (to tell Delete from Backspace). */
  | { type: 'key'; input: string; key: Key; raw: string }
  /** A bracketed paste, whole. */
  | { type: 'paste'; text: string }
  /** Shift+Enter where the terminal reports it (CSI u or modifyOtherKeys). */
  | { type: 'newline' }

/** What a key did to the prompt. */
export type PromptKeyResult =
  | { type: 'edit'; buffer: PromptBuffer }
  | { type: 'submit'; buffer: PromptBuffer }
  /** ↑/↓ on the first/last line: recall history. */
  | { type: 'history'; direction: -1 | 1 }
  /** Ctrl-D on an empty prompt. */
  | { type: 'eof' }
  | { type: 'none' }

/** The raw sequences of Shift+Enter (kitty CSI u, xterm modifyOtherKeys). */
export const SHIFT_ENTER_SEQUENCES: ReadonlySet<string> = new Set(['\u001b[13;2u', '\u001b[27;2;13~'])

/** The raw sequence of the Delete key (Ink reports it, like Backspace's DEL, as `key.delete`). */
const FORWARD_DELETE = '\u001b[3~'

/**
 * Applies one input to the prompt: Enter sends (a `\` before the cursor, Alt+Enter, Shift+Enter and
 * Ctrl-J insert a line break instead), readline's editing keys, and text typed or pasted.
 */
export function promptKey(buffer: PromptBuffer, event: PromptInput): PromptKeyResult {
  if (event.type === 'paste') return { type: 'edit', buffer: paste(buffer, event.text) }
  if (event.type === 'newline') return { type: 'edit', buffer: insert(buffer, '\n') }
  const { input, key, raw } = event
  const edit = (next: PromptBuffer): PromptKeyResult => ({ type: 'edit', buffer: next })
  if (key.return) {
    if (key.meta || key.shift) return edit(insert(buffer, '\n'))
    if (buffer.cursor > 0 && buffer.text[buffer.cursor - 1] === '\\')
      return edit(insert(backspace(buffer), '\n'))
    return { type: 'submit', buffer }
  }
  if (raw === '\n') return edit(insert(buffer, '\n'))
  if (key.upArrow || key.downArrow) {
    const direction = key.upArrow ? -1 : 1
    const moved = verticalMove(buffer, direction)
    return moved ? edit(moved) : { type: 'history', direction }
  }
  if (key.leftArrow) return edit(key.ctrl || key.meta ? wordLeft(buffer) : left(buffer))
  if (key.rightArrow) return edit(key.ctrl || key.meta ? wordRight(buffer) : right(buffer))
  if (key.home) return edit(home(buffer))
  if (key.end) return edit(end(buffer))
  if (key.delete && raw === FORWARD_DELETE) return edit(deleteForward(buffer))
  if (key.backspace || key.delete) return edit(key.meta ? deleteWordLeft(buffer) : backspace(buffer))
  if (key.ctrl) {
    switch (input) {
      case 'a':
        return edit(home(buffer))
      case 'e':
        return edit(end(buffer))
      case 'b':
        return edit(left(buffer))
      case 'f':
        return edit(right(buffer))
      case 'k':
        return edit(killToEnd(buffer))
      case 'u':
        return edit(killToStart(buffer))
      case 'w':
        return edit(deleteWordBefore(buffer))
      case 'h':
        return edit(backspace(buffer))
      case 'd':
        return buffer.text === '' ? { type: 'eof' } : edit(deleteForward(buffer))
      default:
        return { type: 'none' }
    }
  }
  if (key.meta) {
    switch (input) {
      case 'b':
        return edit(wordLeft(buffer))
      case 'f':
        return edit(wordRight(buffer))
      case 'd':
        return edit(deleteWordForward(buffer))
      default:
        return { type: 'none' }
    }
  }
  if (key.escape || key.tab || key.pageUp || key.pageDown || input === '') return { type: 'none' }
  return typedText(buffer, input)
}

/** Alt-D: the word after the cursor. */
function deleteWordForward(buffer: PromptBuffer): PromptBuffer {
  const stop = wordRight(buffer).cursor
  const text = buffer.text.slice(0, buffer.cursor) + buffer.text.slice(stop)
  return { ...buffer, text }
}

/**
 * Text that arrived as one chunk outside a bracketed paste: keys typed faster than the chat reads
 * them, or a paste from a terminal without bracketed paste. `\` before a line break is a typed
 * continuation; one trailing Enter sends; other line breaks are kept (a paste is never cut short).
 */
function typedText(before: PromptBuffer, input: string): PromptKeyResult {
  let buffer = before
  // Enter is `\r` in a raw terminal; `\n` (Ctrl-J) and a `\` continuation are line breaks (the `\`
  // may have come in the read before).
  let text = input.replace(/\r\n/g, '\r').replace(/\\\r/g, '\n')
  if (text.startsWith('\r') && buffer.cursor > 0 && buffer.text[buffer.cursor - 1] === '\\') {
    buffer = backspace(buffer)
    text = `\n${text.slice(1)}`
  }
  const enters = text.split('\r').length - 1
  if (enters === 0) return { type: 'edit', buffer: insert(buffer, text) }
  if (enters === 1 && text.endsWith('\r'))
    return { type: 'submit', buffer: insert(buffer, text.slice(0, -1)) }
  return { type: 'edit', buffer: paste(buffer, text) }
}
