import type { HookJsonOutput, HookPermissionDecision, PermissionRequestDecision } from './types.js'

/** What a hook's stdout turned out to be. */
export type ParsedHookStdout =
  /** Not JSON: plain text (context for UserPromptSubmit/SessionStart). */
  | { kind: 'text'; text: string }
  /** A JSON object; unknown or ill-typed fields were dropped with a warning each. */
  | { kind: 'json'; output: HookJsonOutput; warnings: string[] }
  /** It looked like JSON (`{` or `[` first) but did not parse, or was not an object. */
  | { kind: 'malformed'; error: string }

const DECISIONS: readonly HookPermissionDecision[] = ['allow', 'deny', 'ask']

/** Reads a hook's stdout: JSON when it starts with `{`, plain text otherwise. Never throws. */
export function parseHookStdout(stdout: string): ParsedHookStdout {
  const trimmed = stdout.trim()
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return { kind: 'text', text: trimmed }
  let value: unknown
  try {
    value = JSON.parse(trimmed)
  } catch (error) {
    return { kind: 'malformed', error: error instanceof Error ? error.message : String(error) }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { kind: 'malformed', error: 'expected a JSON object' }
  }
  return validate(value as Record<string, unknown>)
}

/** Validates a hook's output object (a function hook's return value): fields kept, problems as warnings. */
export function parseHookObject(raw: Record<string, unknown>): {
  output: HookJsonOutput
  warnings: string[]
} {
  const parsed = validate(raw)
  return { output: parsed.output, warnings: parsed.warnings }
}

function validate(raw: Record<string, unknown>): Extract<ParsedHookStdout, { kind: 'json' }> {
  const output: HookJsonOutput = {}
  const warnings: string[] = []
  const wrongType = (field: string, expected: string) =>
    warnings.push(`ignored "${field}": expected ${expected}, got ${JSON.stringify(raw[field] ?? null)}`)

  const readString = (source: Record<string, unknown>, field: string, path = field): string | undefined => {
    const value = source[field]
    if (value === undefined) return undefined
    if (typeof value === 'string') return value
    warnings.push(`ignored "${path}": expected a string`)
    return undefined
  }

  if (raw.continue !== undefined) {
    if (typeof raw.continue === 'boolean') output.continue = raw.continue
    else wrongType('continue', 'true or false')
  }
  if (raw.suppressOutput !== undefined) {
    if (typeof raw.suppressOutput === 'boolean') output.suppressOutput = raw.suppressOutput
    else wrongType('suppressOutput', 'true or false')
  }
  const stopReason = readString(raw, 'stopReason')
  if (stopReason !== undefined) output.stopReason = stopReason
  const systemMessage = readString(raw, 'systemMessage')
  if (systemMessage !== undefined) output.systemMessage = systemMessage
  const reason = readString(raw, 'reason')
  if (reason !== undefined) output.reason = reason
  if (raw.decision !== undefined) {
    if (raw.decision === 'block' || raw.decision === 'approve') output.decision = raw.decision
    else wrongType('decision', '"block" or "approve"')
  }

  const specific = raw.hookSpecificOutput
  if (specific !== undefined) {
    if (specific === null || typeof specific !== 'object' || Array.isArray(specific)) {
      wrongType('hookSpecificOutput', 'an object')
    } else {
      const fields = specific as Record<string, unknown>
      const eventName = readString(fields, 'hookEventName', 'hookSpecificOutput.hookEventName')
      if (eventName !== undefined) output.hookEventName = eventName
      const decision = fields.permissionDecision
      if (decision !== undefined) {
        if (DECISIONS.includes(decision as HookPermissionDecision)) {
          output.permissionDecision = decision as HookPermissionDecision
        } else if (decision === 'defer') {
          output.permissionDecisionDeferred = true
        } else {
          warnings.push('ignored "hookSpecificOutput.permissionDecision": expected "allow", "deny" or "ask"')
        }
      }
      const decisionReason = readString(
        fields,
        'permissionDecisionReason',
        'hookSpecificOutput.permissionDecisionReason',
      )
      if (decisionReason !== undefined) output.permissionDecisionReason = decisionReason
      const context = readString(fields, 'additionalContext', 'hookSpecificOutput.additionalContext')
      if (context !== undefined) output.additionalContext = context
      const worktreePath = readString(fields, 'worktreePath', 'hookSpecificOutput.worktreePath')
      if (worktreePath !== undefined) output.worktreePath = worktreePath
      const updated = fields.updatedInput
      if (updated !== undefined) {
        if (updated !== null && typeof updated === 'object' && !Array.isArray(updated)) {
          output.updatedInput = updated as Record<string, unknown>
        } else {
          warnings.push('ignored "hookSpecificOutput.updatedInput": expected an object')
        }
      }
      // Fields of events Z Engine never fires: refused by name rather than dropped in silence.
      if (fields.watchPaths !== undefined)
        warnings.push(
          'ignored "hookSpecificOutput.watchPaths": Z Engine watches the files FileChanged matchers name, not paths hooks return',
        )
      if (fields.retry !== undefined)
        warnings.push('ignored "hookSpecificOutput.retry": PermissionDenied never fires in Z Engine')
      if (fields.decision !== undefined) {
        const answer = permissionRequestDecision(fields.decision, warnings)
        if (answer !== undefined) output.permissionRequest = answer
      }
    }
  }
  return { kind: 'json', output, warnings }
}

/** A PermissionRequest hook's `hookSpecificOutput.decision` (`{ behavior: "allow" | "deny", … }`). */
function permissionRequestDecision(
  value: unknown,
  warnings: string[],
): PermissionRequestDecision | undefined {
  const path = 'hookSpecificOutput.decision'
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    warnings.push(`ignored "${path}": expected an object with "behavior"`)
    return undefined
  }
  const fields = value as Record<string, unknown>
  switch (fields.behavior) {
    case 'allow': {
      const updated = fields.updatedInput
      if (fields.updatedPermissions !== undefined)
        warnings.push(
          `ignored "${path}.updatedPermissions": Z Engine does not apply permission updates from hooks`,
        )
      if (updated === undefined) return { behavior: 'allow' }
      if (updated !== null && typeof updated === 'object' && !Array.isArray(updated))
        return { behavior: 'allow', updatedInput: updated as Record<string, unknown> }
      warnings.push(`ignored "${path}": "updatedInput" must be an object`)
      return undefined
    }
    case 'deny': {
      const message = typeof fields.message === 'string' ? fields.message : undefined
      if (fields.message !== undefined && message === undefined)
        warnings.push(`ignored "${path}.message": expected a string`)
      const interrupt = fields.interrupt === true
      return {
        behavior: 'deny',
        ...(message !== undefined ? { message } : {}),
        ...(interrupt ? { interrupt } : {}),
      }
    }
    default:
      warnings.push(`ignored "${path}": expected "behavior" to be "allow" or "deny"`)
      return undefined
  }
}
