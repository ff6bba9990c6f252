import { isDeepStrictEqual } from 'node:util'
import { parse } from 'smol-toml'
import type { TomlEditResult } from './toml-append.js'
import { lineEnd, scanStatements } from './toml-scan.js'

/**
 * Sets (or, with `undefined`, removes) the boolean `[table] key = value` of a TOML document by
 * editing the text, so comments and every other key survive. Creates the table when missing and
 * re-parses the result to prove that only that key changed. Never throws.
 */
export function setTomlBoolean(
  text: string,
  table: readonly string[],
  key: string,
  value: boolean | undefined,
): TomlEditResult {
  let before: Record<string, unknown>
  try {
    before = parse(text) as Record<string, unknown>
  } catch (error) {
    return { ok: false, error: `it is not valid TOML (${firstLine(error)}); fix it first` }
  }
  const holder = tableAt(before, table)
  if (holder !== undefined && holder[key] === value) return { ok: true, text, changed: false }
  const edited = edit(text, table, key, value)
  if (typeof edited !== 'string') return edited
  let after: Record<string, unknown>
  try {
    after = parse(edited) as Record<string, unknown>
  } catch (error) {
    return { ok: false, error: `the edit would break the file (${firstLine(error)}); change it by hand` }
  }
  const expected = plain(before) as Record<string, unknown>
  let target = expected
  for (const segment of table) {
    target[segment] ??= {}
    target = target[segment] as Record<string, unknown>
  }
  if (value === undefined) delete target[key]
  else target[key] = value
  if (!isDeepStrictEqual(plain(after), expected))
    return { ok: false, error: 'the edit would change other settings; change it by hand' }
  return { ok: true, text: edited, changed: true }
}

function edit(
  text: string,
  table: readonly string[],
  key: string,
  value: boolean | undefined,
): string | { ok: false; error: string } {
  const statements = scanStatements(text)
  if (statements === undefined)
    return { ok: false, error: 'its layout could not be followed; change it by hand' }
  const line = `${JSON.stringify(key)} = ${String(value)}`
  let current: string[] = []
  let header: { end: number } | undefined
  for (const statement of statements) {
    if (statement.kind !== 'keyValue') {
      current = statement.kind === 'table' ? statement.path : [...statement.path, '[]']
      if (statement.kind === 'table' && same(statement.path, table)) header = statement
      continue
    }
    const full = [...current, ...statement.path]
    if (same(full, [...table, key])) {
      if (value !== undefined)
        return text.slice(0, statement.valueStart) + String(value) + text.slice(statement.end)
      const start = text.lastIndexOf('\n', statement.start - 1) + 1
      const end = Math.min(text.length, lineEnd(text, statement.end) + 1)
      return text.slice(0, start) + text.slice(end)
    }
    if (full.length >= table.length && same(full.slice(0, table.length), table) && !same(current, table))
      return {
        ok: false,
        error: `${table.join('.')} is written as dotted keys or an inline table; change it by hand`,
      }
  }
  if (value === undefined) return text
  if (header !== undefined) {
    const at = lineEnd(text, header.end)
    return `${text.slice(0, at)}\n${line}${text.slice(at)}`
  }
  const separator = text === '' ? '' : text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n'
  return `${text}${separator}[${table.join('.')}]\n${line}\n`
}

function tableAt(
  root: Record<string, unknown>,
  path: readonly string[],
): Record<string, unknown> | undefined {
  let holder: unknown = root
  for (const segment of path)
    holder =
      typeof holder === 'object' && holder !== null ? (holder as Record<string, unknown>)[segment] : undefined
  return typeof holder === 'object' && holder !== null ? (holder as Record<string, unknown>) : undefined
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((segment, index) => segment === b[index])
}

/** Plain objects only: smol-toml's tables have no prototype and its dates are a Date subclass. */
function plain(value: unknown): unknown {
  if (value instanceof Date) return { date: value.toString() }
  if (Array.isArray(value)) return value.map(plain)
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, plain(inner)]))
  return value
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!
}
