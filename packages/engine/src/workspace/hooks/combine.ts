import type { HookEvent, HookOutcome, HookPermissionDecision, HookRunResult } from './types.js'

const STRICTNESS: Record<HookPermissionDecision, number> = { allow: 0, ask: 1, deny: 2 }

/** Events whose plain exit-0 stdout is context for the model. */
const STDOUT_IS_CONTEXT: ReadonlySet<HookEvent> = new Set(['UserPromptSubmit', 'SessionStart'])

/** Events a hook can block (exit 2 or `decision: "block"`); on the others a session ignores it. */
const CAN_BLOCK: ReadonlySet<HookEvent> = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'PreCompact',
  // Claude Code 2.1.332 reads a PreModelSwitch block as a blocking error: the model is kept.
  'PreModelSwitch',
  'UserPromptExpansion',
  // Claude Code 2.1.332: exit 2 on PermissionRequest denies the permission, stderr to the model.
  'PermissionRequest',
  // Claude Code 2.1.332: a refused embedded command is not run (`[not run: blocked by hook: …]`).
  'PreSkillShellCommand',
  // Claude Code 2.1.332: a blocked ConfigChange keeps the settings the session has.
  'ConfigChange',
  // Exit 2, like any failure, fails the worktree's creation or is reported as a failed removal.
  'WorktreeCreate',
  'WorktreeRemove',
])

/** Events whose `permissionDecision` and `updatedInput` a session reads. */
const TAKES_DECISION: ReadonlySet<HookEvent> = new Set(['PreToolUse', 'PreSkillShellCommand'])

/** Events whose `additionalContext` reaches a model (the subagent's, for SubagentStart). */
const TAKES_CONTEXT: ReadonlySet<HookEvent> = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'SessionStart',
  'SubagentStart',
  'UserPromptExpansion',
])

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
    ignored: [],
    suppressOutput: false,
  }
  const blockReasons: string[] = []
  for (const result of results) {
    const label = `${event} hook \`${result.hook.command}\``
    for (const warning of result.warnings) outcome.warnings.push(`${label} ${warning}`)
    const ignore = (what: string) => {
      const text = `${what}: ${event} hooks cannot do that, so a session ignores it`
      result.ignored = [...(result.ignored ?? []), text]
      outcome.ignored.push(`${label}: ${text}`)
      outcome.warnings.push(`${label} ${text}`)
    }
    if (result.status === 'blocked') {
      if (!CAN_BLOCK.has(event)) {
        ignore(
          `exit code 2 (block)${result.stderr.trim() ? ` with ${JSON.stringify(result.stderr.trim())}` : ''}`,
        )
        continue
      }
      outcome.blocked = true
      blockReasons.push(result.stderr.trim() || `${label} blocked without giving a reason`)
      continue
    }
    if (result.status !== 'success') continue

    let output = result.output
    if (output?.hookEventName !== undefined && output.hookEventName !== event) {
      // Claude Code drops hook-specific fields written for another event.
      ignore(`hookSpecificOutput for ${output.hookEventName}`)
      output = withoutSpecificFields(output)
    }
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
    if (output.additionalContext && !TAKES_CONTEXT.has(event)) ignore('"additionalContext"')
    else if (output.additionalContext) outcome.additionalContext.push(output.additionalContext)
    if (output.permissionDecisionDeferred && event !== 'PreSkillShellCommand')
      ignore('"permissionDecision": "defer"')
    if (!TAKES_DECISION.has(event)) {
      if (output.permissionDecision !== undefined) ignore('"permissionDecision"')
      if (output.updatedInput !== undefined) ignore('"updatedInput"')
    }
    if (event !== 'PreToolUse' && output.decision === 'approve') ignore('"decision": "approve"')
    // Claude Code: `allow` adds nothing, a deny or an ask keeps the line from running, and an
    // `updatedInput` is never applied, so any value keeps it from running too.
    if (
      event === 'PreSkillShellCommand' &&
      (output.permissionDecision === 'deny' ||
        output.permissionDecision === 'ask' ||
        output.permissionDecisionDeferred ||
        output.updatedInput !== undefined)
    ) {
      outcome.blocked = true
      blockReasons.push(output.permissionDecisionReason ?? output.reason ?? '')
    }
    if (output.decision === 'block' && !CAN_BLOCK.has(event)) ignore('"decision": "block"')
    if (output.permissionRequest !== undefined) {
      if (event !== 'PermissionRequest') ignore('"decision"')
      // A deny wins over an allow; the first deny's message, the last allow's rewrite.
      else if (outcome.permissionRequest?.behavior !== 'deny')
        outcome.permissionRequest = output.permissionRequest
    }

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
    if ((output.decision === 'block' && CAN_BLOCK.has(event)) || decision === 'deny') {
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

/** A hook's output without its `hookSpecificOutput` fields. */
function withoutSpecificFields(output: NonNullable<HookRunResult['output']>): HookRunResult['output'] {
  const kept = { ...output }
  delete kept.hookEventName
  delete kept.permissionDecision
  delete kept.permissionDecisionReason
  delete kept.permissionDecisionDeferred
  delete kept.updatedInput
  delete kept.additionalContext
  delete kept.permissionRequest
  return kept
}
