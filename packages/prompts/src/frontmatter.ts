import { parse } from 'yaml'

/**
 * A markdown file split into its YAML frontmatter (a mapping) and the body after it. `repaired`
 * lists the keys whose values YAML rejected until they were quoted (see `repairFrontmatter`).
 */
export type FrontmatterResult =
  | {
      ok: true
      data: Record<string, unknown>
      body: string
      hasFrontmatter: boolean
      repaired?: string[]
      /** Keys read line by line from a header YAML rejects even after quoting (see `recoverFields`). */
      recovered?: string[]
    }
  | { ok: false; error: string; line?: number; body?: string }

/** What a caller knows of its header, so a broken one can still give the right fields. */
export interface FrontmatterOptions {
  /** The keys the caller reads: a line starting with one of them (at column 0) starts that field. */
  keys?: readonly string[]
  /** Of those, the free-text ones whose value may run over several lines (`description`). */
  textKeys?: readonly string[]
}

const OPENING = /^---[ \t]*\r?\n/
const CLOSING = /^---[ \t]*$/m

/**
 * Splits `---` frontmatter from a markdown document and parses it as YAML. Never throws: a broken
 * header comes back as an error with the line (1-based, in the file) where YAML saw the problem,
 * and the body after the header (so a caller can still load it, as Claude Code does). Before giving
 * up, values YAML rejects are quoted and the header parsed again, as Claude Code retries.
 */
export function parseFrontmatter(text: string, options: FrontmatterOptions = {}): FrontmatterResult {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text
  const opening = OPENING.exec(source)
  if (!opening) return { ok: true, data: {}, body: source, hasFrontmatter: false }
  const rest = source.slice(opening[0].length)
  const closing = CLOSING.exec(rest)
  if (!closing)
    return { ok: false, error: 'The frontmatter opened with --- is never closed with a --- line', line: 1 }
  const header = rest.slice(0, closing.index)
  const body = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, '')
  let data: unknown = simpleMapping(header)
  let repaired: string[] | undefined
  let recovered: string[] | undefined
  try {
    data ??= parse(header, { prettyErrors: true })
  } catch (error) {
    const retry = repairFrontmatter(header)
    if (retry.keys.length > 0) {
      try {
        data = parse(retry.header)
        repaired = retry.keys
      } catch {
        // Still broken: report the original error, which points at what the user wrote.
      }
    }
    if (repaired === undefined && options.keys !== undefined) {
      const fields = recoverFields(header, options.keys, options.textKeys ?? [])
      if (fields !== undefined) {
        data = fields
        recovered = Object.keys(fields)
      }
    }
    if (repaired === undefined && recovered === undefined) {
      const linePos = (error as { linePos?: Array<{ line: number }> }).linePos
      const line = linePos?.[0]?.line
      const message = error instanceof Error ? error.message.split('\n')[0]! : String(error)
      // +1 for the opening `---` line, so the number points into the file the user edits.
      return line === undefined
        ? { ok: false, error: `Invalid YAML frontmatter: ${message}`, body }
        : { ok: false, error: `Invalid YAML frontmatter: ${message}`, line: line + 1, body }
    }
  }
  if (data === null || data === undefined) return { ok: true, data: {}, body, hasFrontmatter: true }
  if (typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, error: 'The frontmatter must be a YAML mapping (key: value lines)', line: 2, body }
  }
  const result: FrontmatterResult = {
    ok: true,
    data: data as Record<string, unknown>,
    body,
    hasFrontmatter: true,
  }
  if (repaired !== undefined) result.repaired = repaired
  if (recovered !== undefined) result.recovered = recovered
  return result
}

const KEY_VALUE = /^([A-Za-z_][\w-]*):[ \t]+(\S.*?)[ \t]*$/

/**
 * Quotes the top-level `key: value` lines whose value YAML would reject or misread as a nested
 * mapping (`description: Use when: x`), leaving valid values (flow lists, quoted strings) alone,
 * and indents tab-indented lines with two spaces per tab, as Claude Code does before parsing again.
 * The value is single-quoted, so backslashes (`\n`) and `#` stay literal text.
 */
export function repairFrontmatter(header: string): { header: string; keys: string[] } {
  const keys: string[] = []
  let current: string | undefined
  const lines = header.split('\n').map((raw) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    // Claude Code indents with two spaces per leading tab before its second parse.
    const tabs = /^\t+/.exec(line)
    if (tabs !== null) {
      if (current !== undefined && !keys.includes(current)) keys.push(current)
      return '  '.repeat(tabs[0].length) + line.slice(tabs[0].length)
    }
    const top = /^([A-Za-z_][\w-]*):/.exec(line)
    if (top !== null) current = top[1]
    const match = KEY_VALUE.exec(line)
    if (!match) return raw
    const [, key, value] = match as unknown as [string, string, string]
    if (valueIsSafe(value)) return raw
    keys.push(key)
    const unwrapped = /^"[\s\S]*"$/.test(value) ? value.slice(1, -1) : value
    return `${key}: '${unwrapped.replaceAll("'", "''")}'`
  })
  return { header: lines.join('\n'), keys }
}

function valueIsSafe(value: string): boolean {
  if (/^[|>]/.test(value)) return true
  // A `#` after a space starts a YAML comment; in a one-line value it was meant as text.
  if (/\s#/.test(value) && !/^["']/.test(value)) return false
  let parsed: unknown
  try {
    parsed = parse(value)
  } catch {
    return false
  }
  // `a: b` parses as a mapping and `x # y` loses its tail; neither is what a one-line value meant.
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return /^\{/.test(value)
  return true
}

const SIMPLE_LINE = /^([A-Za-z_][\w-]*):[ \t]+(.*?)[ \t]*$/
const PLAIN_VALUE = /^[A-Za-z][^:#{}[\]]*$/
const DOUBLE_QUOTED = /^"([^"\\]*)"$/
const SINGLE_QUOTED = /^'([^']*)'$/
const YAML_WORDS = /^(true|false|null|yes|no|on|off|y|n)$/i

/**
 * The common header — one `key: value` per line, each value plain text starting with a letter, or
 * quoted without escapes — read without the YAML parser (the same result, far cheaper when a
 * session loads hundreds of definitions). Anything else (lists, numbers, booleans, nesting, block
 * scalars, comments after values, duplicate keys) returns undefined and goes to YAML.
 */
export function simpleMapping(header: string): Record<string, string> | undefined {
  const data: Record<string, string> = {}
  for (const raw of header.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (line.trim() === '' || line.startsWith('#')) continue
    const match = SIMPLE_LINE.exec(line)
    if (match === null) return undefined
    const [, key, value] = match as unknown as [string, string, string]
    if (Object.hasOwn(data, key)) return undefined
    const quoted = DOUBLE_QUOTED.exec(value) ?? SINGLE_QUOTED.exec(value)
    if (quoted !== null) data[key] = quoted[1]!
    else if (PLAIN_VALUE.test(value) && !YAML_WORDS.test(value)) data[key] = value
    else return undefined
  }
  return Object.keys(data).length > 0 ? data : undefined
}

const FIELD_LINE = /^([A-Za-z_][\w-]*):(?:[ \t]+(.*?))?[ \t]*$/

/**
 * Reads a header YAML rejects even after quoting, line by line: a line that starts (at column 0)
 * with one of `keys` and a colon starts that field, and every line up to the next such line belongs
 * to it. Each field is parsed as YAML on its own (lists, quoted values, block scalars); a free-text
 * field (`textKeys`) that still does not parse is its text: an indented continuation folds into one
 * line as a YAML plain scalar would (`description: Use this agent when` / `  the user asks`), an
 * unindented one (examples with `user:` and `assistant:` lines) keeps its lines. Undefined when a
 * line cannot be given to a field, or a field other than free text does not parse: then the header
 * is reported broken as before.
 */
export function recoverFields(
  header: string,
  keys: readonly string[],
  textKeys: readonly string[],
): Record<string, unknown> | undefined {
  const known = new Set(keys)
  const fields: Array<{ key: string; lines: string[] }> = []
  for (const raw of header.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    const match = FIELD_LINE.exec(line)
    if (match !== null && known.has(match[1]!)) {
      fields.push({ key: match[1]!, lines: [line] })
      continue
    }
    const current = fields.at(-1)
    if (current === undefined) {
      if (line.trim() === '' || line.startsWith('#')) continue
      return undefined
    }
    current.lines.push(line)
  }
  if (fields.length === 0) return undefined
  const data: Record<string, unknown> = {}
  for (const { key, lines } of fields) {
    const value = fieldValue(key, lines, textKeys.includes(key))
    if (value === undefined) return undefined
    data[key] = value.value
  }
  return data
}

function fieldValue(key: string, lines: string[], text: boolean): { value: unknown } | undefined {
  const alone = lines.join('\n')
  for (const candidate of [alone, repairFrontmatter(alone).header]) {
    try {
      const parsed: unknown = parse(candidate)
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
        const entries = Object.entries(parsed)
        if (entries.length === 1 && entries[0]![0] === key) return { value: entries[0]![1] }
      }
    } catch {
      // Not YAML on its own either: free text below, or nothing.
    }
  }
  if (!text) return undefined
  const first = FIELD_LINE.exec(lines[0]!)?.[2] ?? ''
  const rest = lines.slice(1)
  while (rest.length > 0 && rest.at(-1)!.trim() === '') rest.pop()
  const indented = rest.every((line) => line.trim() === '' || /^[ \t]/.test(line))
  if (indented) {
    // A plain scalar: lines fold into spaces, a blank line is a line break.
    let value = first
    let pendingBreak = false
    for (const line of rest) {
      if (line.trim() === '') pendingBreak = true
      else {
        value += (pendingBreak ? '\n' : value === '' ? '' : ' ') + line.trim()
        pendingBreak = false
      }
    }
    return { value: value.trim() }
  }
  return { value: [first, ...rest].join('\n').trim() }
}
