import { isDeepStrictEqual } from 'node:util'
import { parse } from 'smol-toml'
import { lineEnd, scanArray, scanStatements } from './toml-scan.js'

/** The edited text, or why the edit was not made (the text is then left as it was). */
export type TomlEditResult = { ok: true; text: string; changed: boolean } | { ok: false; error: string }

/**
 * Appends a string to the array `[table] key = [...]` of a TOML document by editing the text, so
 * comments, layout and every other key survive. Creates the key or the table when missing, does
 * nothing when the value is already there, and re-parses the result to prove that the only change is
 * the appended value. Never throws.
 */
export function appendToTomlArray(
  text: string,
  table: readonly string[],
  key: string,
  value: string,
): TomlEditResult {
  let before: Record<string, unknown>
  try {
    before = parse(text) as Record<string, unknown>
  } catch (error) {
    return { ok: false, error: `it is not valid TOML (${firstLine(error)}); fix it first` }
  }
  const current = valueAt(before, [...table, key])
  if (current !== undefined && !Array.isArray(current))
    return { ok: false, error: `${[...table, key].join('.')} is not an array` }
  if (Array.isArray(current) && current.includes(value)) return { ok: true, text, changed: false }

  const edited = insert(text, table, key, JSON.stringify(value))
  if (typeof edited !== 'string') return edited
  let after: Record<string, unknown>
  try {
    after = parse(edited) as Record<string, unknown>
  } catch (error) {
    return { ok: false, error: `the edit would break the file (${firstLine(error)}); add it by hand` }
  }
  const expected = structuredClone(before)
  setArrayValue(expected, [...table, key], [...((current as unknown[] | undefined) ?? []), value])
  if (!isDeepStrictEqual(plain(after), plain(expected)))
    return { ok: false, error: 'the edit would change other settings; add it by hand' }
  return { ok: true, text: edited, changed: true }
}

function insert(
  text: string,
  table: readonly string[],
  key: string,
  literal: string,
): string | { ok: false; error: string } {
  const statements = scanStatements(text)
  if (statements === undefined)
    return { ok: false, error: 'its layout could not be followed; add it by hand' }
  const target = [...table, key]
  let currentTable: string[] = []
  let tableHeader: { end: number } | undefined
  let rootDotted: { end: number } | undefined
  for (const statement of statements) {
    if (statement.kind !== 'keyValue') {
      currentTable = statement.kind === 'table' ? statement.path : [...statement.path, '[]']
      if (statement.kind === 'table' && sameKey(statement.path, table)) tableHeader = statement
      continue
    }
    const fullPath = [...currentTable, ...statement.path]
    if (sameKey(fullPath, target)) return insertIntoArray(text, statement.valueStart!, literal)
    if (sameKey(fullPath, table))
      return { ok: false, error: `${table.join('.')} is an inline table; add it by hand` }
    if (currentTable.length === 0 && startsWith(statement.path, table)) rootDotted = statement
  }
  const line = `${key} = [${literal}]`
  if (tableHeader !== undefined) return splice(text, lineEnd(text, tableHeader.end), `\n${line}`)
  // The table exists only through dotted keys at the root; a new [table] header would redefine it.
  if (rootDotted !== undefined)
    return splice(text, lineEnd(text, rootDotted.end), `\n${table.join('.')}.${line}`)
  const separator = text === '' ? '' : text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n'
  return `${text}${separator}[${table.join('.')}]\n${line}\n`
}

function insertIntoArray(
  text: string,
  valueStart: number,
  literal: string,
): string | { ok: false; error: string } {
  const layout = scanArray(text, valueStart)
  if (layout === undefined)
    return { ok: false, error: 'the existing value is not an array it can extend; add it by hand' }
  const last = layout.elements.at(-1)
  if (last === undefined) return splice(text, layout.open + 1, literal)
  const lastLineEnd = lineEnd(text, last.end)
  if (lastLineEnd >= layout.close) {
    // The closing bracket is on the last element's line: extend the line.
    return splice(text, last.end, `, ${literal}`)
  }
  // One element per line: add a line with the same indentation, keeping the comma style.
  const lineStart = text.lastIndexOf('\n', last.start) + 1
  const indent = /^[ \t]*/.exec(text.slice(lineStart, last.start))![0]
  const withLine = splice(text, lastLineEnd, `\n${indent}${literal}${layout.trailingComma ? ',' : ''}`)
  return layout.trailingComma ? withLine : splice(withLine, last.end, ',')
}

function splice(text: string, at: number, insertion: string): string {
  return text.slice(0, at) + insertion + text.slice(at)
}

function sameKey(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((segment, index) => segment === b[index])
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return path.length > prefix.length && prefix.every((segment, index) => path[index] === segment)
}

function valueAt(root: Record<string, unknown>, path: readonly string[]): unknown {
  let holder: unknown = root
  for (const key of path)
    holder =
      typeof holder === 'object' && holder !== null ? (holder as Record<string, unknown>)[key] : undefined
  return holder
}

function setArrayValue(root: Record<string, unknown>, path: readonly string[], value: unknown[]): void {
  let holder = root
  for (const key of path.slice(0, -1)) {
    holder[key] ??= {}
    holder = holder[key] as Record<string, unknown>
  }
  holder[path[path.length - 1]!] = value
}

/** Plain objects and arrays only: smol-toml's tables have no prototype and its dates are a Date subclass. */
function plain(value: unknown): unknown {
  if (value instanceof Date) return { date: value.toString() }
  if (Array.isArray(value)) return value.map(plain)
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, plain(inner)]))
  }
  return value
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!
}
