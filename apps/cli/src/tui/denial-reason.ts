import type { PermissionMode } from '@z-engine/protocol'

/**
 * The line a denied call's card shows: why it was refused (the policy's reason or the hook's), from
 * the result the model got; in plan mode, also how to leave it. Undefined for a denial the user gave
 * on the approval card (its answer is shown instead) or a result without a reason.
 */
export function denialReason(output: string | undefined, mode: PermissionMode): string | undefined {
  if (output === undefined) return undefined
  const reason =
    /^Permission denied: ([\s\S]+)$/.exec(output)?.[1] ??
    /^(Blocked by a PreToolUse hook: [\s\S]+)$/.exec(output)?.[1]
  if (reason === undefined) return undefined
  const line = reason.split('\n')[0]!.trim()
  if (mode === 'plan' && /plan mode/.test(line))
    return `${line} (Shift+Tab leaves plan mode; or approve the plan the agent proposes)`
  return line
}
