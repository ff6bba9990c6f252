import { type PermissionMode, parsePermissionMode } from '@z-engine/protocol'
import type { DefinitionIssueCode, DefinitionWarning } from './types.js'

/** Collects per-field warnings while reading frontmatter values of uncertain type. */
export class FieldReader {
  readonly warnings: DefinitionWarning[]

  constructor(
    private readonly data: Record<string, unknown>,
    known: readonly string[],
    warnings: DefinitionWarning[] = [],
  ) {
    this.warnings = warnings
    for (const key of Object.keys(data)) {
      if (!known.includes(key))
        this.warn('field_unknown', `unknown field "${key}" is ignored (known: ${known.join(', ')})`)
    }
  }

  /** Records a warning with its stable code. */
  warn(code: DefinitionIssueCode, message: string): void {
    this.warnings.push({ code, message })
  }

  /** Whether the frontmatter has `key` at all (even if its value is unusable). */
  has(key: string): boolean {
    return this.data[key] !== undefined && this.data[key] !== null
  }

  /** The value exactly as parsed, for fields kept whole (`hooks`, `mcpServers`, `metadata`). */
  raw(key: string): unknown {
    return this.data[key] ?? undefined
  }

  /** A non-empty string (numbers and booleans are accepted and converted, as YAML types `model: 4`). */
  string(key: string): string | undefined {
    const value = this.data[key]
    if (value === undefined || value === null) return undefined
    if (typeof value === 'number' || typeof value === 'boolean') return String(value)
    if (typeof value === 'string' && value.trim() !== '') return value.trim()
    this.warn('field_invalid', `"${key}" must be a non-empty string; it was ignored`)
    return undefined
  }

  /**
   * Free text as Claude Code reads it (`String(value)`): a number or boolean as written, and a YAML
   * list (`argument-hint: [message]`) joined with commas, never dropped.
   */
  text(key: string): string | undefined {
    const value = this.data[key]
    if (value === undefined || value === null) return undefined
    if (Array.isArray(value)) return String(value).trim() || undefined
    return this.string(key)
  }

  /**
   * A tool-like list written as a YAML list, one comma-separated string, or a space-separated
   * string (Claude Code accepts all three); `Bash(git add *)` stays one entry.
   */
  list(key: string): string[] | undefined {
    const value = this.data[key]
    if (value === undefined || value === null) return undefined
    if (typeof value === 'string') return splitList(value)
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
      return value.map((item) => item.trim()).filter((item) => item !== '')
    }
    this.warn(
      'field_invalid',
      `"${key}" must be a list of strings or a comma-separated string; it was ignored`,
    )
    return undefined
  }

  /** A positive integer; a number written as a string (`"25"`) counts, as in Claude Code. */
  positiveInteger(key: string): number | undefined {
    const value = this.data[key]
    if (value === undefined || value === null) return undefined
    const number = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value
    if (typeof number === 'number' && Number.isInteger(number) && number > 0) return number
    this.warn('field_invalid', `"${key}" must be a positive whole number; it was ignored`)
    return undefined
  }

  /** A boolean; `"true"`/`"false"` in any case count. */
  boolean(key: string): boolean | undefined {
    const value = this.data[key]
    if (value === undefined || value === null) return undefined
    if (typeof value === 'boolean') return value
    if (typeof value === 'string' && /^(true|false)$/i.test(value.trim()))
      return value.trim().toLowerCase() === 'true'
    this.warn('field_invalid', `"${key}" must be true or false; it was ignored`)
    return undefined
  }

  /** One of a fixed set of strings, compared without case (`Worktree` is `worktree`). */
  oneOf<Value extends string>(key: string, allowed: readonly Value[]): Value | undefined {
    const value = this.data[key]
    if (value === undefined || value === null) return undefined
    const found =
      typeof value === 'string'
        ? allowed.find((option) => option.toLowerCase() === value.trim().toLowerCase())
        : undefined
    if (found === undefined)
      this.warn('field_invalid', `"${key}" must be one of ${allowed.join(', ')}; it was ignored`)
    return found
  }

  /** A permission mode in any case; `bypassPermissions` (Claude Code's spelling) means `bypass`. */
  permissionMode(key: string): PermissionMode | undefined {
    const value = this.data[key]
    if (value === undefined || value === null) return undefined
    const mode = typeof value === 'string' ? permissionModeOf(value.trim()) : undefined
    if (mode === undefined)
      this.warn('field_invalid', `"${key}" must be default, acceptEdits, plan or bypass; it was ignored`)
    return mode
  }
}

function permissionModeOf(text: string): PermissionMode | undefined {
  const exact = parsePermissionMode(text)
  if (exact !== undefined) return exact
  for (const spelling of ['default', 'acceptEdits', 'plan', 'bypass', 'bypassPermissions'])
    if (spelling.toLowerCase() === text.toLowerCase()) return parsePermissionMode(spelling)
  return undefined
}

/**
 * Splits `Read, Bash(git add:*), Grep` on commas outside parentheses; a string without commas
 * outside parentheses is split on whitespace outside them (`Read Grep Bash(git log *)`).
 */
export function splitList(text: string): string[] {
  const separator = hasTopLevel(text, (char) => char === ',') ? /,/ : /\s/
  const items: string[] = []
  let depth = 0
  let current = ''
  for (const char of text) {
    if (char === '(') depth++
    if (char === ')') depth = Math.max(0, depth - 1)
    if (depth === 0 && separator.test(char)) {
      items.push(current)
      current = ''
      continue
    }
    current += char
  }
  items.push(current)
  return items.map((item) => item.trim()).filter((item) => item !== '')
}

function hasTopLevel(text: string, test: (char: string) => boolean): boolean {
  let depth = 0
  for (const char of text) {
    if (char === '(') depth++
    else if (char === ')') depth = Math.max(0, depth - 1)
    else if (depth === 0 && test(char)) return true
  }
  return false
}
