import { askJson, clip, text } from '../ask-json.js'
import type { DecisionUse } from '../use.js'

const EFFORTS = ['low', 'medium', 'high', 'max'] as const

/**
 * Chooses the reasoning effort and the model a turn's prompt (or a subagent's task) needs, among
 * what the seam offers. A model it was not offered is dropped here (and again by the seam).
 */
export const routeChoice: DecisionUse<'route'> = {
  feature: 'decisions_route',
  seam: 'route',
  summary:
    'raises the effort or the model (within the configured fast → main models) of a turn or subagent launch; never lowers',
  async decide(input, ctx) {
    const offersEffort = input.effort !== undefined
    const offersModel = input.stronger.length > 0
    if (!offersEffort && !offersModel) return undefined
    const asks = [
      ...(offersEffort ? ['"effort": "low" | "medium" | "high" | "max"'] : []),
      ...(offersModel
        ? [`"model": null (keep ${input.model}) or one of ${JSON.stringify(input.stronger)}`]
        : []),
      '"reason": "..."',
    ]
    const answer = await askJson(
      ctx,
      this.feature,
      `How much does this coding ${input.agent ? 'task for a subagent' : 'request'} need? A stronger model costs more: choose one only when the task is hard. {${asks.join(', ')}}.`,
      {
        prompt: clip(input.prompt, 3_000),
        ...(input.agent ? { agent: input.agent } : {}),
        model: input.model,
        ...(offersEffort ? { effort: input.effort } : {}),
      },
    )
    const effort = offersEffort ? EFFORTS.find((candidate) => candidate === answer.effort) : undefined
    const model = offersModel ? input.stronger.find((candidate) => candidate === answer.model) : undefined
    if (effort === undefined && model === undefined) return undefined
    return {
      ...(effort !== undefined ? { effort } : {}),
      ...(model !== undefined ? { model } : {}),
      reason: text(answer.reason, 200) ?? 'chosen by the decision service',
    }
  },
  describe: (advice) =>
    [
      ...(advice.model !== undefined ? [`model ${advice.model}`] : []),
      ...(advice.effort !== undefined ? [`effort ${advice.effort}`] : []),
    ].join(', ') + `: ${advice.reason}`,
}
