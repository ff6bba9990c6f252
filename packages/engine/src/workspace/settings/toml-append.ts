import { editToml, samePath, type TomlEditResult } from './toml-edit.js'
import { lineEnd, scanArray, scanStatements } from './toml-scan.js'

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
  return editToml(text, {
    path: [...table, key],
    byHand: 'add',
    plan: (current, source) => {
      if (current !== undefined && !Array.isArray(current))
        return { ok: false, error: `${[...table, key].join('.')} is not an array` }
      if (Array.isArray(current) && current.includes(value)) return 'unchanged'
      return {
        value: [...((current as unknown[] | undefined) ?? []), value],
        text: insert(source, table, key, JSON.stringify(value)),
      }
    },
  })
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
      if (statement.kind === 'table' && samePath(statement.path, table)) tableHeader = statement
      continue
    }
    const fullPath = [...currentTable, ...statement.path]
    if (samePath(fullPath, target)) return insertIntoArray(text, statement.valueStart!, literal)
    if (samePath(fullPath, table))
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

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return path.length > prefix.length && prefix.every((segment, index) => path[index] === segment)
}
