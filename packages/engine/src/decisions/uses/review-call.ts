import { askJson, clip, text } from '../ask-json.js'
import type { DecisionUse } from '../use.js'

/** review_call: asks the user about an allowed call that looks destructive or off-task. */
export const reviewCall: DecisionUse<'toolGate'> = {
  feature: 'decisions_review_call',
  seam: 'toolGate',
  summary: 'turns an allowed call that looks risky into an approval (never the other way)',
  async decide(input, ctx) {
    const answer = await askJson(
      ctx,
      this.feature,
      'The permission rules allow this tool call. Should the user review it first because it looks destructive, irreversible, off-task or like it sends data out? {"ask": true, "reason": "..."} or {"ask": false}.',
      { tool: input.toolName, title: input.title, input: clip(JSON.stringify(input.input), 3_000) },
    )
    if (answer.ask !== true) return undefined
    return { ask: true, reason: text(answer.reason, 300) ?? 'it looked risky to the decision service' }
  },
  describe: (advice) => `ask: ${advice.reason}`,
}
