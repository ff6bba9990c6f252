import { parseFrontmatter } from '@z-engine/prompts'
import { type PermissionMode, parsePermissionMode } from '@z-engine/protocol'

/** Collects per-field warnings while reading frontmatter values of uncertain type. */
export class FieldReader {
  readonly warnings: string[] = []

  constructor(
    private readonly data: Record<string, unknown>,
    known: readonly string[],
  ) {
    for (const key of Object.keys(data)) {
      if (!known.includes(key))
        this.warnings.push(`unknown field "${key}" is ignored (known: ${known.join(', ')})`)
    }
  }

  /** A non-empty string (numbers are accepted and converted, as YAML turns `model: 4` into one). */
  string(key: string): string | undefined {
    const value = this.data[key]
    if (value === undefined || value === null) return undefined
    if (typeof value === 'number') return String(value)
    if (typeof value === 'string' && value.trim() !== '') return value.trim()
    this.warnings.push(`"${key}" must be a non-empty string; it was ignored`)
    return undefined
  }

  /** A list written as a YAML list or as one comma-separated string (Claude Code accepts both). */
  list(key: string): string[] | undefined {
    const value = this.data[key]
    if (value === undefined || value === null) return undefined
    if (typeof value === 'string') return splitList(value)
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
      return value.map((item) => item.trim()).filter((item) => item !== '')
    }
    this.warnings.push(`"${key}" must be a list of strings or a comma-separated string; it was ignored`)
    return undefined
  }

  /** A positive integer. */
  positiveInteger(key: string): number | undefined {
    const value = this.data[key]
    if (value === undefined || value === null) return undefined
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value
    this.warnings.push(`"${key}" must be a positive whole number; it was ignored`)
    return undefined
  }

  /** One of a fixed set of strings. */
  oneOf<Value extends string>(key: string, allowed: readonly Value[]): Value | undefined {
    const value = this.data[key]
    if (value === undefined || value === null) return undefined
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as Value
    this.warnings.push(`"${key}" must be one of ${allowed.join(', ')}; it was ignored`)
    return undefined
  }

  /** A permission mode; `bypassPermissions` (Claude Code's spelling) means `bypass`. */
  permissionMode(key: string): PermissionMode | undefined {
    const value = this.data[key]
    if (value === undefined || value === null) return undefined
    const mode = typeof value === 'string' ? parsePermissionMode(value) : undefined
    if (mode === undefined)
      this.warnings.push(`"${key}" must be default, acceptEdits, plan or bypass; it was ignored`)
    return mode
  }
}

/** Splits `Read, Bash(git add:*), Grep` on commas outside parentheses. */
export function splitList(text: string): string[] {
  const items: string[] = []
  let depth = 0
  let current = ''
  for (const char of text) {
    if (char === '(') depth++
    if (char === ')') depth = Math.max(0, depth - 1)
    if (char === ',' && depth === 0) {
      items.push(current)
      current = ''
      continue
    }
    current += char
  }
  items.push(current)
  return items.map((item) => item.trim()).filter((item) => item !== '')
}

/** A definition file's frontmatter and body, or why it cannot be read (with the line when known). */
export type FrontmatterRead =
  | { ok: true; data: Record<string, unknown>; body: string }
  | { ok: false; error: string; line?: number }

/**
 * Reads a definition's frontmatter. `missing` is the error for a file without one; without it a
 * file may have none (commands), and its data is empty.
 */
export function readFrontmatter(text: string, missing?: string): FrontmatterRead {
  const parsed = parseFrontmatter(text)
  if (!parsed.ok) {
    return parsed.line === undefined
      ? { ok: false, error: parsed.error }
      : { ok: false, error: parsed.error, line: parsed.line }
  }
  if (!parsed.hasFrontmatter && missing !== undefined) return { ok: false, error: missing, line: 1 }
  return { ok: true, data: parsed.data, body: parsed.body }
}
