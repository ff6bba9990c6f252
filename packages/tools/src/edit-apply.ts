import { closestLines } from './closest-lines.js'
import type { LineEndings } from './text-file.js'
import { toCrlf, toLf } from './text-file.js'

/** One replacement (Edit's fields, and each item of MultiEdit's `edits`). */
export type EditSpec = { old_string: string; new_string: string; replace_all?: boolean }

/** The outcome of applying edits to a text. */
export type ApplyOutcome =
  | { ok: true; text: string; replacements: number }
  | { ok: false; code: 'no_change' | 'not_found' | 'ambiguous' | 'empty_old_string'; message: string }

/**
 * Applies edits in order to a file's text (all or nothing: the first failure returns it and
 * nothing else). A CRLF file is edited in LF form and written back as CRLF, so the model's
 * LF-only `old_string` matches and the file keeps its line endings.
 */
export function applyEdits(text: string, edits: EditSpec[], lineEndings: LineEndings): ApplyOutcome {
  const crlf = lineEndings === 'crlf'
  let working = crlf ? toLf(text) : text
  let replacements = 0
  for (const [index, edit] of edits.entries()) {
    const label = edits.length > 1 ? `Edit ${index + 1} of ${edits.length}: ` : ''
    const oldString = lineEndings === 'mixed' ? edit.old_string : toLf(edit.old_string)
    const newString = lineEndings === 'mixed' ? edit.new_string : toLf(edit.new_string)
    if (oldString === newString) {
      return {
        ok: false,
        code: 'no_change',
        message: `${label}old_string and new_string are identical; there is nothing to change.`,
      }
    }
    if (oldString === '') {
      return {
        ok: false,
        code: 'empty_old_string',
        message: `${label}old_string is empty, but the file already has content. Give the exact text to replace (use Write to replace the whole file).`,
      }
    }
    let positions = occurrences(working, oldString)
    if (positions.length === 0) {
      // Models often type straight quotes where the file has typographic ones (or the reverse).
      // Each quote is one UTF-16 unit either way, so offsets in the normalized text are offsets
      // in the file.
      positions = occurrences(normalizeQuotes(working), normalizeQuotes(oldString))
    }
    if (positions.length === 0) {
      return { ok: false, code: 'not_found', message: label + notFoundMessage(working, oldString) }
    }
    if (positions.length > 1 && edit.replace_all !== true) {
      const lines = positions.slice(0, 10).map((position) => lineOf(working, position))
      return {
        ok: false,
        code: 'ambiguous',
        message: `${label}old_string occurs ${positions.length} times (at lines ${lines.join(', ')}${positions.length > 10 ? ', …' : ''}). Add surrounding lines to make it unique, or set replace_all to true to change every occurrence.`,
      }
    }
    // Splice by position, last first (never String.replace: `$&` in new_string stays literal).
    for (const position of (edit.replace_all === true ? positions : positions.slice(0, 1)).reverse()) {
      working = spliceAt(working, position, oldString.length, newString)
    }
    replacements += edit.replace_all === true ? positions.length : 1
  }
  return { ok: true, text: crlf ? toCrlf(working) : working, replacements }
}

function spliceAt(text: string, position: number, length: number, insert: string): string {
  return text.slice(0, position) + insert + text.slice(position + length)
}

/** Start offsets of non-overlapping occurrences. */
function occurrences(text: string, search: string): number[] {
  const found: number[] = []
  let from = 0
  for (;;) {
    const at = text.indexOf(search, from)
    if (at === -1) return found
    found.push(at)
    from = at + search.length
  }
}

/** Typographic quotes as their ASCII forms. */
function normalizeQuotes(text: string): string {
  return text.replace(/[\u2018\u2019\u201A\u201B]/g, "'").replace(/[\u201C\u201D\u201E\u201F]/g, '"')
}

/** 1-based line number of an offset. */
export function lineOf(text: string, offset: number): number {
  let line = 1
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1))
    line += 1
  return line
}

function notFoundMessage(text: string, oldString: string): string {
  const closest = closestLines(text, oldString)
  if (!closest) {
    return 'old_string was not found in the file, and no similar lines exist. Read the file again and copy the exact text (without the line-number prefix).'
  }
  const lines = text.split('\n')
  const shown = lines
    .slice(closest.startLine - 1, closest.endLine)
    .map((line, offset) => `${String(closest.startLine + offset).padStart(6)}\t${line.replace(/\r$/, '')}`)
    .join('\n')
  const why = closest.whitespaceOnly
    ? 'differs from old_string only in whitespace or indentation'
    : 'is the closest match'
  return `old_string was not found in the file. Lines ${closest.startLine}-${closest.endLine} ${why}:\n${shown}\nCopy the exact text from these lines (without the line-number prefix) into old_string and retry.`
}
