import { askJson, clip } from '../ask-json.js'
import { exchangeDigest, planTaskView } from '../seams/task-view-plan.js'
import type { DecisionUse } from '../use.js'

/**
 * Task views: when a new prompt starts a turn over a long history, names the earlier exchanges the
 * new task needs; the others are left out of the working set (an index says what) until
 * `includeFullHistory`. The answer is checked strictly: anything but a list of offered ids fails,
 * and a failure abstains.
 */
export const taskView: DecisionUse<'turnStart'> = {
  feature: 'decisions_task_view',
  seam: 'turnStart',
  summary: 'leaves earlier exchanges the new task does not need out of the working set (restorable)',
  async decide(input, ctx) {
    const plan = planTaskView(input.history)
    if (plan.kind === 'skip') return undefined
    const answer = await askJson(
      ctx,
      this.feature,
      'A new prompt starts a turn of a long coding conversation. Name the earlier exchanges the new task needs (their ids); the others are left out of the conversation the model sees (they can be restored). The latest exchanges always stay. Keep anything the new prompt may build on: {"keep": ["id", ...]}.',
      {
        newPrompt: clip(input.prompt, 2_000),
        earlierExchanges: plan.candidates.map(exchangeDigest),
      },
    )
    if (!Array.isArray(answer.keep) || answer.keep.some((id) => typeof id !== 'string'))
      throw new Error('the decision model did not answer a list of exchange ids in "keep"')
    const offered = new Set(plan.candidates.map((exchange) => exchange.id))
    const unknown = (answer.keep as string[]).find((id) => !offered.has(id))
    if (unknown !== undefined)
      throw new Error(`the decision model named an exchange it was not offered: ${unknown.slice(0, 60)}`)
    const keep = [...new Set(answer.keep as string[])]
    // Keeping every candidate leaves nothing out: no view, no cache break.
    return keep.length === offered.size ? undefined : { kind: 'taskView', keep }
  },
  describe: (advice) =>
    advice.kind === 'taskView' ? `keep ${advice.keep.length} earlier exchange(s)` : 'reminders',
}
