import type { HookEvent, HookInput } from './types.js'

/** A compiled matcher, or why the pattern is not a valid regular expression. */
export type CompiledMatcher = { ok: true; test: (value: string) => boolean } | { ok: false; error: string }

/**
 * Compiles a hook matcher. Empty, absent and `*` match everything; anything else is a regular
 * expression that must match the whole value, so `Edit` is exact while `Edit|Write` and `mcp__.*`
 * work as expected.
 */
export function compileMatcher(matcher: string | undefined): CompiledMatcher {
  const pattern = matcher?.trim() ?? ''
  if (pattern === '' || pattern === '*') return { ok: true, test: () => true }
  try {
    const regex = new RegExp(`^(?:${pattern})$`)
    return { ok: true, test: (value) => regex.test(value) }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return {
      ok: false,
      error: `matcher ${JSON.stringify(pattern)} is not a valid regular expression (${reason})`,
    }
  }
}

/** The value an event's matcher is tested against, or undefined when the event ignores matchers. */
export function matcherSubject<E extends HookEvent>(event: E, input: HookInput<E>): string | undefined {
  switch (event) {
    case 'PreToolUse':
    case 'PostToolUse':
      return (input as HookInput<'PreToolUse'>).toolName
    case 'PreCompact':
      return (input as HookInput<'PreCompact'>).trigger
    case 'SessionStart':
      return (input as HookInput<'SessionStart'>).source
    case 'UserPromptSubmit':
    case 'SessionEnd':
    case 'Stop':
    case 'SubagentStop':
    case 'Notification':
      return undefined
    default: {
      const unknownEvent: never = event
      return unknownEvent
    }
  }
}
