import { basename } from 'node:path'
import { HOOK_EVENT_TABLE } from './events.js'
import type { HookEvent } from './types.js'

/** How a matcher is read (Claude Code's rules), as `hooks list --json` shows it. */
export type MatcherKind =
  /** Empty, absent or `*`: every value. */
  | 'all'
  /** One name: exactly this name. */
  | 'exact'
  /** Names joined by `|` (or `,` on most events: `Edit|Write`): exactly one of them. */
  | 'list'
  /** Any other character: a regular expression searched in the value (`mcp__.*`, `^Notebook`). */
  | 'regex'
  /** Set on an event with nothing to match (UserPromptSubmit, Stop…): ignored, as Claude Code does. */
  | 'ignored'

/** A compiled matcher, or why the pattern is not a valid regular expression. */
export type CompiledMatcher =
  | { ok: true; kind: MatcherKind; test: (value: string) => boolean }
  | { ok: false; kind: MatcherKind; error: string }

/** Which kind a matcher is on `event` (Claude Code's rules), without compiling it. */
export function matcherKind(matcher: string | undefined, event: HookEvent): MatcherKind {
  const pattern = matcher?.trim() ?? ''
  if (pattern === '' || pattern === '*') return 'all'
  if (HOOK_EVENT_TABLE[event].matchOn === undefined) return 'ignored'
  const names = namesOf(pattern, event)
  if (names === undefined) return 'regex'
  return names.length === 1 ? 'exact' : 'list'
}

/**
 * The names a matcher lists, or undefined when it is a regular expression. Claude Code reads
 * letters, digits, `_` and `|` as names on every event, and on the events whose table row says
 * `punctuatedNames` also `-`, spaces and `,` (so `code-reviewer` and `Edit, Write` are names).
 */
function namesOf(pattern: string, event: HookEvent): string[] | undefined {
  const punctuated = HOOK_EVENT_TABLE[event].punctuatedNames
  if (!(punctuated ? /^[A-Za-z0-9_|, -]+$/ : /^[A-Za-z0-9_|]+$/).test(pattern)) return undefined
  return pattern
    .split(punctuated ? /[|,]/ : '|')
    .map((name) => name.trim())
    .filter((name) => name !== '')
}

/**
 * Compiles a hook matcher as Claude Code reads it on `event`: `Edit` is exact (never
 * `EditNotebook`), `Edit|Write` a list of exact names, and anything with another character a
 * JavaScript regular expression tested anywhere in the value (anchor it with `^…$` to match whole
 * names).
 */
export function compileMatcher(matcher: string | undefined, event: HookEvent): CompiledMatcher {
  const pattern = matcher?.trim() ?? ''
  const kind = matcherKind(pattern, event)
  switch (kind) {
    case 'all':
    case 'ignored':
      return { ok: true, kind, test: () => true }
    case 'exact':
    case 'list': {
      const names = new Set(namesOf(pattern, event))
      return { ok: true, kind, test: (value) => names.has(value) }
    }
    case 'regex':
      try {
        const regex = new RegExp(pattern)
        return { ok: true, kind, test: (value) => regex.test(value) }
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error)
        return {
          ok: false,
          kind,
          error: `matcher ${JSON.stringify(pattern)} is not a valid regular expression (${reason})`,
        }
      }
    default: {
      const unknownKind: never = kind
      return unknownKind
    }
  }
}

/**
 * The value an event's matcher is tested against (its HOOK_EVENT_TABLE field in the stdin
 * payload; a file's base name for FileChanged), or undefined when the event ignores matchers.
 */
export function matcherSubject(event: HookEvent, payload: Record<string, unknown>): string | undefined {
  const field = HOOK_EVENT_TABLE[event].matchOn
  if (field === undefined) return undefined
  const value = payload[field]
  if (typeof value !== 'string') return undefined
  return event === 'FileChanged' ? basename(value) : value
}
