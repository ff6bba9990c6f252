/**
 * A small TOML scanner that finds statements and array elements by offset, so settings can be edited
 * as text (smol-toml's stringify would drop the user's comments and layout). It only locates things;
 * callers verify every edit by re-parsing the result.
 */

/** A top-level statement: a table header or a key/value line. */
export interface TomlStatement {
  kind: 'table' | 'arrayTable' | 'keyValue'
  /** Header name, or the key (dotted keys split), unquoted. */
  path: string[]
  /** Offset where the statement starts (first non-blank character). */
  start: number
  /** Offset just after the statement's value (or header), before any trailing comment. */
  end: number
  /** Offset where the value starts (key/value only). */
  valueStart?: number
}

/** An array value's layout. */
export interface TomlArrayLayout {
  /** Offset of `[` and of the matching `]`. */
  open: number
  close: number
  elements: Array<{ start: number; end: number }>
  /** Whether a comma follows the last element. */
  trailingComma: boolean
}

/** Scans a document's statements; undefined when it cannot make sense of the text. */
export function scanStatements(text: string): TomlStatement[] | undefined {
  const statements: TomlStatement[] = []
  let index = 0
  while (index < text.length) {
    index = skipBlank(text, index, true)
    if (index >= text.length) break
    const char = text[index]
    if (char === '#') {
      index = lineEnd(text, index)
      continue
    }
    if (char === '[') {
      const double = text[index + 1] === '['
      const nameStart = index + (double ? 2 : 1)
      const close = text.indexOf(double ? ']]' : ']', nameStart)
      if (close === -1) return undefined
      const end = close + (double ? 2 : 1)
      statements.push({
        kind: double ? 'arrayTable' : 'table',
        path: splitKey(text.slice(nameStart, close)),
        start: index,
        end,
      })
      index = lineEnd(text, end)
      continue
    }
    const equals = findKeyEnd(text, index)
    if (equals === undefined) return undefined
    const valueStart = skipBlank(text, equals + 1, false)
    const valueEnd = scanValue(text, valueStart)
    if (valueEnd === undefined) return undefined
    statements.push({
      kind: 'keyValue',
      path: splitKey(text.slice(index, equals)),
      start: index,
      end: valueEnd,
      valueStart,
    })
    index = lineEnd(text, valueEnd)
  }
  return statements
}

/** The layout of the array value starting at `open` (which must be `[`). */
export function scanArray(text: string, open: number): TomlArrayLayout | undefined {
  if (text[open] !== '[') return undefined
  const elements: Array<{ start: number; end: number }> = []
  let index = open + 1
  let trailingComma = false
  for (;;) {
    index = skipBlank(text, index, true, true)
    if (index >= text.length) return undefined
    if (text[index] === ']') return { open, close: index, elements, trailingComma }
    const end = scanValue(text, index)
    if (end === undefined) return undefined
    elements.push({ start: index, end })
    trailingComma = false
    index = skipBlank(text, end, true, true)
    if (text[index] === ',') {
      trailingComma = true
      index++
    } else if (text[index] !== ']') {
      return undefined
    }
  }
}

/** Offset just after a value starting at `start`, or undefined when it is unterminated. */
function scanValue(text: string, start: number): number | undefined {
  const char = text[start]
  if (text.startsWith('"""', start)) return closeMultiline(text, start, '"""', true)
  if (text.startsWith("'''", start)) return closeMultiline(text, start, "'''", false)
  if (char === '"') {
    for (let index = start + 1; index < text.length; index++) {
      if (text[index] === '\\') index++
      else if (text[index] === '"') return index + 1
      else if (text[index] === '\n') return undefined
    }
    return undefined
  }
  if (char === "'") {
    const close = text.indexOf("'", start + 1)
    return close === -1 || text.slice(start, close).includes('\n') ? undefined : close + 1
  }
  if (char === '[') {
    const layout = scanArray(text, start)
    return layout === undefined ? undefined : layout.close + 1
  }
  if (char === '{') {
    let index = start + 1
    for (;;) {
      index = skipBlank(text, index, false)
      if (text[index] === '}') return index + 1
      const equals = findKeyEnd(text, index)
      if (equals === undefined) return undefined
      const end = scanValue(text, skipBlank(text, equals + 1, false))
      if (end === undefined) return undefined
      index = skipBlank(text, end, false)
      if (text[index] === ',') index++
      else if (text[index] !== '}') return undefined
    }
  }
  let index = start
  while (index < text.length && !',]}\n#'.includes(text[index]!)) index++
  while (index > start && /[ \t\r]/.test(text[index - 1]!)) index--
  return index > start ? index : undefined
}

function closeMultiline(
  text: string,
  start: number,
  delimiter: string,
  escapes: boolean,
): number | undefined {
  for (let index = start + 3; index < text.length; index++) {
    if (escapes && text[index] === '\\') {
      index++
      continue
    }
    if (text.startsWith(delimiter, index)) {
      let end = index + 3
      // Up to two quotes right before the delimiter belong to the string.
      while (end < text.length && text[end] === delimiter[0] && end - index < 5) end++
      return end
    }
  }
  return undefined
}

/** Offset of the `=` ending a key that starts at `start`. */
function findKeyEnd(text: string, start: number): number | undefined {
  let index = start
  while (index < text.length) {
    const char = text[index]!
    if (char === '=') return index
    if (char === '\n' || char === '#') return undefined
    if (char === '"' || char === "'") {
      const close = text.indexOf(char, index + 1)
      if (close === -1) return undefined
      index = close + 1
      continue
    }
    index++
  }
  return undefined
}

/** Skips spaces and tabs; also newlines when `newlines`, and comments when `comments`. */
function skipBlank(text: string, start: number, newlines: boolean, comments = false): number {
  let index = start
  while (index < text.length) {
    const char = text[index]!
    if (char === ' ' || char === '\t' || char === '\r' || (newlines && char === '\n')) index++
    else if (comments && char === '#') index = lineEnd(text, index)
    else break
  }
  return index
}

/** Offset of the end of the line holding `index` (at the `\n`, or the end of the text). */
export function lineEnd(text: string, index: number): number {
  const newline = text.indexOf('\n', index)
  return newline === -1 ? text.length : newline
}

function splitKey(key: string): string[] {
  const segments: string[] = []
  for (const match of key.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|([^.\s"']+)/g))
    segments.push(match[1] ?? match[2] ?? match[3]!)
  return segments
}
