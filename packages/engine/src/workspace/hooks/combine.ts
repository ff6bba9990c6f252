import type { HookEvent, HookOutcome, HookPermissionDecision, HookRunResult } from './types.js'

const STRICTNESS: Record<HookPermissionDecision, number> = { allow: 0, ask: 1, deny: 2 }

/** Events whose plain exit-0 stdout is context for the model. */
const STDOUT_IS_CONTEXT: ReadonlySet<HookEvent> = new Set(['UserPromptSubmit', 'SessionStart'])

/**
 * Folds the results of one event's hooks, in configuration order, into one outcome. Deterministic
 * whatever order the processes finished in: any block blocks, deny > ask > allow, the first stop
 * reason and decision reason win, and the last `updatedInput` wins.
 */
export function combineHookResults(event: HookEvent, results: HookRunResult[]): HookOutcome {
  const outcome: HookOutcome = {
    event,
    results,
    blocked: false,
    continue: true,
    additionalContext: [],
    systemMessages: [],
    warnings: [],
    suppressOutput: false,
  }
  const blockReasons: string[] = []
  for (const result of results) {
    const label = `${event} hook \`${result.hook.command}\``
    for (const warning of result.warnings) outcome.warnings.push(`${label} ${warning}`)
    if (result.status === 'blocked') {
      outcome.blocked = true
      blockReasons.push(result.stderr.trim() || `${label} blocked without giving a reason`)
      continue
    }
    if (result.status !== 'success') continue

    const output = result.output
    if (output === undefined) {
      const text = result.stdout.trim()
      if (STDOUT_IS_CONTEXT.has(event) && text !== '' && !result.warnings.length)
        outcome.additionalContext.push(text)
      continue
    }
    if (output.continue === false) {
      outcome.continue = false
      const stopReason = outcome.stopReason ?? output.stopReason ?? output.reason
      if (stopReason !== undefined) outcome.stopReason = stopReason
    }
    if (output.suppressOutput) outcome.suppressOutput = true
    if (output.systemMessage) outcome.systemMessages.push(output.systemMessage)
    if (output.additionalContext) outcome.additionalContext.push(output.additionalContext)

    const decision = event === 'PreToolUse' ? permissionDecisionOf(output) : undefined
    if (decision !== undefined) {
      const reason = output.permissionDecisionReason ?? output.reason
      if (
        outcome.permissionDecision === undefined ||
        STRICTNESS[decision] > STRICTNESS[outcome.permissionDecision]
      ) {
        outcome.permissionDecision = decision
        if (reason === undefined) delete outcome.permissionDecisionReason
        else outcome.permissionDecisionReason = reason
      }
    }
    if (output.decision === 'block' || decision === 'deny') {
      outcome.blocked = true
      blockReasons.push(
        output.permissionDecisionReason ?? output.reason ?? `${label} blocked without giving a reason`,
      )
    }
    if (event === 'PreToolUse' && output.updatedInput !== undefined)
      outcome.updatedInput = output.updatedInput
  }
  // A PreToolUse block is a deny, so the batch has one field to read.
  if (event === 'PreToolUse' && outcome.blocked && outcome.permissionDecision !== 'deny') {
    outcome.permissionDecision = 'deny'
    outcome.permissionDecisionReason = blockReasons.join('\n')
  }
  if (blockReasons.length > 0) outcome.blockReason = blockReasons.join('\n')
  return outcome
}

function permissionDecisionOf(
  output: NonNullable<HookRunResult['output']>,
): HookPermissionDecision | undefined {
  if (output.permissionDecision !== undefined) return output.permissionDecision
  if (output.decision === 'approve') return 'allow'
  if (output.decision === 'block') return 'deny'
  return undefined
}
