import { parse } from 'yaml'

/**
 * A markdown file split into its YAML frontmatter (a mapping) and the body after it. `repaired`
 * lists the keys whose values YAML rejected until they were quoted (see `repairFrontmatter`).
 */
export type FrontmatterResult =
  | { ok: true; data: Record<string, unknown>; body: string; hasFrontmatter: boolean; repaired?: string[] }
  | { ok: false; error: string; line?: number; body?: string }

const OPENING = /^---[ \t]*\r?\n/
const CLOSING = /^---[ \t]*$/m

/**
 * Splits `---` frontmatter from a markdown document and parses it as YAML. Never throws: a broken
 * header comes back as an error with the line (1-based, in the file) where YAML saw the problem,
 * and the body after the header (so a caller can still load it, as Claude Code does). Before giving
 * up, values YAML rejects are quoted and the header parsed again, as Claude Code retries.
 */
export function parseFrontmatter(text: string): FrontmatterResult {
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
    if (repaired === undefined) {
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
  return result
}

const KEY_VALUE = /^([A-Za-z_][\w-]*):[ \t]+(\S.*?)[ \t]*$/

/**
 * Quotes the top-level `key: value` lines whose value YAML would reject or misread as a nested
 * mapping (`description: Use when: x`), leaving valid values (flow lists, quoted strings) alone.
 * The value is single-quoted, so backslashes (`\n`) and `#` stay literal text.
 */
export function repairFrontmatter(header: string): { header: string; keys: string[] } {
  const keys: string[] = []
  const lines = header.split('\n').map((raw) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
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
