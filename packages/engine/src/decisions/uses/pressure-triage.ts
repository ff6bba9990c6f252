import { askJson, texts } from '../ask-json.js'
import type { DecisionUse } from '../use.js'

/** Keeps planned clears of results the task still needs, or adds clears of stale ones. */
export const pressureTriage: DecisionUse<'contextPressure'> = {
  feature: 'decisions_pressure_triage',
  seam: 'contextPressure',
  summary: 'keeps tool results the task still needs, or clears stale ones too',
  async decide(input, ctx) {
    const answer = await askJson(
      ctx,
      this.feature,
      'The context is filling up; old tool results are planned to be cleared (saved to artifacts, replaced by a marker). Name planned results the task still needs (keep) and other results that are stale (add): {"keep": ["toolUseId"], "add": ["toolUseId"]}.',
      { planned: input.planned, others: input.others },
    )
    const plannedIds = new Set(input.planned.map((clear) => clear.toolUseId))
    const otherIds = new Set(input.others.map((clear) => clear.toolUseId))
    const keep = texts(answer.keep, 50, 200).filter((id) => plannedIds.has(id))
    const add = texts(answer.add, 50, 200).filter((id) => otherIds.has(id))
    return keep.length === 0 && add.length === 0 ? undefined : { keep, add }
  },
  describe: (advice) => `keep ${advice.keep.length}, add ${advice.add.length}`,
}
