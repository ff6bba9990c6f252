import type { HookEvent, HookInput } from './types.js'

/** How a matcher is read (Claude Code's rules), as `hooks list --json` shows it. */
export type MatcherKind =
  /** Empty, absent or `*`: every value. */
  | 'all'
  /** Only letters, digits and `_`: exactly this name. */
  | 'exact'
  /** Names joined by `|` (`Edit|Write`): exactly one of them. */
  | 'list'
  /** Any other character: a regular expression searched in the value (`mcp__.*`, `^Notebook`). */
  | 'regex'

/** A compiled matcher, or why the pattern is not a valid regular expression. */
export type CompiledMatcher =
  | { ok: true; kind: MatcherKind; test: (value: string) => boolean }
  | { ok: false; kind: MatcherKind; error: string }

/** Which kind a matcher is, without compiling it. */
export function matcherKind(matcher: string | undefined): MatcherKind {
  const pattern = matcher?.trim() ?? ''
  if (pattern === '' || pattern === '*') return 'all'
  if (/^[A-Za-z0-9_]+$/.test(pattern)) return 'exact'
  if (/^[A-Za-z0-9_|]+$/.test(pattern)) return 'list'
  return 'regex'
}

/**
 * Compiles a hook matcher as Claude Code reads it: `Edit` is exact (never `EditNotebook`),
 * `Edit|Write` a list of exact names, and anything with another character a JavaScript regular
 * expression tested anywhere in the value (anchor it with `^…$` to match whole names).
 */
export function compileMatcher(matcher: string | undefined): CompiledMatcher {
  const pattern = matcher?.trim() ?? ''
  const kind = matcherKind(pattern)
  switch (kind) {
    case 'all':
      return { ok: true, kind, test: () => true }
    case 'exact':
      return { ok: true, kind, test: (value) => value === pattern }
    case 'list': {
      const names = new Set(pattern.split('|').filter((name) => name !== ''))
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

/** The value an event's matcher is tested against, or undefined when the event ignores matchers. */
export function matcherSubject<E extends HookEvent>(event: E, input: HookInput<E>): string | undefined {
  switch (event) {
    case 'PreToolUse':
    case 'PostToolUse':
      return (input as HookInput<'PreToolUse'>).toolName
    case 'SubagentStart':
    case 'SubagentStop':
      return (input as HookInput<'SubagentStart'>).agentType
    case 'PreCompact':
      return (input as HookInput<'PreCompact'>).trigger
    case 'SessionStart':
      return (input as HookInput<'SessionStart'>).source
    case 'UserPromptSubmit':
    case 'SessionEnd':
    case 'Stop':
    case 'Notification':
      return undefined
    default: {
      const unknownEvent: never = event
      return unknownEvent
    }
  }
}
