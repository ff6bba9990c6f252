import type { DecisionHub } from '../hub.js'

/**
 * Check select: ids of checks to skip at the stop boundary. Never every check (at least one still
 * runs), never one whose latest record failed, and only ids the caller offered.
 */
export async function checksToSkip(
  hub: DecisionHub | undefined,
  checks: readonly { id: string; command: string; lastFailed: boolean }[],
  changedFiles: readonly string[],
  signal: AbortSignal,
): Promise<Set<string>> {
  if (checks.length < 2 || !hub?.joins('checkSelect')) return new Set()
  const advice = await hub.consult(
    'checkSelect',
    { checks: checks.map(({ id, command }) => ({ id, command })), changedFiles },
    signal,
  )
  const skippable = new Set(checks.filter((check) => !check.lastFailed).map((check) => check.id))
  const skip = new Set(advice.flatMap((one) => one.skip).filter((id) => skippable.has(id)))
  if (skip.size >= checks.length) skip.delete(checks.find((check) => skip.has(check.id))!.id)
  return skip
}
