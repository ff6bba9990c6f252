import type { Key } from 'ink'

/** What one keystroke did to a one-line input: the new text, and whether Enter submitted it. */
export interface LineEdit {
  value: string
  submitted: boolean
}

/**
 * Applies a keystroke to a single-line input whose cursor stays at the end (the terminal library
 * draws it; we only keep the text). A paste arrives as one chunk and may carry its own Enter.
 */
export function editLine(value: string, input: string, key: Key): LineEdit {
  if (key.return) return { value, submitted: true }
  if (key.backspace || key.delete) return { value: [...value].slice(0, -1).join(''), submitted: false }
  if (key.ctrl && input === 'u') return { value: '', submitted: false }
  if (key.ctrl && input === 'w') return { value: value.replace(/\S*\s*$/, ''), submitted: false }
  if (key.ctrl || key.meta || key.escape || key.tab || key.upArrow || key.downArrow) {
    return { value, submitted: false }
  }
  if (key.leftArrow || key.rightArrow || key.pageUp || key.pageDown || key.home || key.end)
    return { value, submitted: false }
  const enter = input.search(/[\r\n]/)
  if (enter >= 0) return { value: value + input.slice(0, enter), submitted: true }
  return { value: value + input, submitted: false }
}
