import { editToml, samePath, type TomlEditResult } from './toml-edit.js'
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
  return editToml(text, {
    path: [...table, key],
    byHand: 'change',
    plan: (current, source) =>
      current === value ? 'unchanged' : { value, text: edit(source, table, key, value) },
  })
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
      if (statement.kind === 'table' && samePath(statement.path, table)) header = statement
      continue
    }
    const full = [...current, ...statement.path]
    if (samePath(full, [...table, key])) {
      if (value !== undefined)
        return text.slice(0, statement.valueStart) + String(value) + text.slice(statement.end)
      const start = text.lastIndexOf('\n', statement.start - 1) + 1
      const end = Math.min(text.length, lineEnd(text, statement.end) + 1)
      return text.slice(0, start) + text.slice(end)
    }
    if (
      full.length >= table.length &&
      samePath(full.slice(0, table.length), table) &&
      !samePath(current, table)
    )
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
