/**
 * The check every text edit of a settings file goes through (toml-append.ts, toml-set.ts): parse
 * the document first, make the edit on the text, re-parse it and accept it only when its data equals
 * the data before with exactly the intended change. A refused edit leaves the file as it was.
 */
import { isDeepStrictEqual } from 'node:util'
import { parse } from 'smol-toml'
import { setAt, valueAt } from './object-path.js'

/** The edited text, or why the edit was not made (the text is then left as it was). */
export type TomlEditResult = { ok: true; text: string; changed: boolean } | { ok: false; error: string }

/** One edit: what it does to the parsed data, and the text that should do the same. */
export interface TomlEdit {
  /** The value the edit finds at `path` decides; `undefined` means the key is absent. */
  path: readonly string[]
  /**
   * Given the current value at `path`: `unchanged` when there is nothing to do, an error, or the new
   * value (`undefined` removes the key) with the edited text.
   */
  plan(
    current: unknown,
    text: string,
  ):
    | 'unchanged'
    | { ok: false; error: string }
    | { value: unknown; text: string | { ok: false; error: string } }
  /** The verb the refusal messages suggest doing by hand ("add", "change"). */
  byHand: string
}

/** Applies an edit to a TOML document with the before/after check. Never throws. */
export function editToml(text: string, edit: TomlEdit): TomlEditResult {
  let before: Record<string, unknown>
  try {
    before = parse(text) as Record<string, unknown>
  } catch (error) {
    return { ok: false, error: `it is not valid TOML (${firstLine(error)}); fix it first` }
  }
  const planned = edit.plan(valueAt(before, edit.path), text)
  if (planned === 'unchanged') return { ok: true, text, changed: false }
  if ('ok' in planned) return planned
  if (typeof planned.text !== 'string') return planned.text
  let after: Record<string, unknown>
  try {
    after = parse(planned.text) as Record<string, unknown>
  } catch (error) {
    return {
      ok: false,
      error: `the edit would break the file (${firstLine(error)}); ${edit.byHand} it by hand`,
    }
  }
  const expected = plain(before) as Record<string, unknown>
  setAt(expected, edit.path, planned.value === undefined ? undefined : plain(planned.value))
  if (!isDeepStrictEqual(plain(after), expected))
    return { ok: false, error: `the edit would change other settings; ${edit.byHand} it by hand` }
  return { ok: true, text: planned.text, changed: true }
}

/** Whether two key paths are the same. */
export function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((segment, index) => segment === b[index])
}

/** Plain objects and arrays only: smol-toml's tables have no prototype and its dates are a Date subclass. */
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
