import { type PlannedClear, planMicroClear } from '@z-engine/context'
import type { Message } from '@z-engine/protocol'
import type { DecisionHub } from '../hub.js'
import type { ClearCandidate } from '../seam-types.js'

/** Recent results never offered for an extra clear (the model has barely seen them). */
const KEEP_RECENT_FOR_ADDS = 2
const EXCERPT_CHARS = 300

function candidate(clear: PlannedClear): ClearCandidate {
  return {
    toolUseId: clear.toolUseId,
    toolName: clear.toolName,
    tokens: clear.tokens,
    excerpt: clear.original.slice(0, EXCERPT_CHARS),
  }
}

/**
 * Context pressure: the planned clears after the on uses' advice. A result any use keeps stays
 * (keeping wins over another use's add); adds come only from older results the plan left alone.
 * Undefined when nobody joins the seam (the plan stands as is).
 */
export function pressureReview(
  hub: DecisionHub | undefined,
  messages: readonly Message[],
  windowTokens: number,
  usedTokens: number,
): ((planned: readonly PlannedClear[]) => Promise<readonly PlannedClear[]>) | undefined {
  if (!hub?.joins('contextPressure')) return undefined
  return async (planned) => {
    if (planned.length === 0) return planned
    const plannedIds = new Set(planned.map((clear) => clear.toolUseId))
    const others = planMicroClear({
      messages,
      usedTokens,
      windowTokens,
      force: true,
      keepRecent: KEEP_RECENT_FOR_ADDS,
    }).clears.filter((clear) => !plannedIds.has(clear.toolUseId))
    const advice = await hub.consult('contextPressure', {
      planned: planned.map(candidate),
      others: others.map(candidate),
    })
    if (advice.length === 0) return planned
    const keep = new Set(advice.flatMap((one) => one.keep))
    const add = new Set(advice.flatMap((one) => one.add).filter((id) => !keep.has(id)))
    return [
      ...planned.filter((clear) => !keep.has(clear.toolUseId)),
      ...others.filter((clear) => add.has(clear.toolUseId)),
    ].sort((a, b) => a.messageIndex - b.messageIndex || a.blockIndex - b.blockIndex)
  }
}
