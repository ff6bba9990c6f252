import { askJson, texts } from '../ask-json.js'
import type { DecisionUse } from '../use.js'

/** Picks checks the turn's changes cannot affect, to skip at the stop boundary. */
export const checkSelect: DecisionUse<'checkSelect'> = {
  feature: 'decisions_check_select',
  seam: 'checkSelect',
  summary: 'skips checks the changed files cannot affect (at least one check still runs)',
  async decide(input, ctx) {
    const answer = await askJson(
      ctx,
      this.feature,
      'These checks would run after the listed files changed. Which checks can these changes not affect? {"skip": ["check id"]}. When unsure: {"skip": []}.',
      { checks: input.checks, changedFiles: input.changedFiles.slice(0, 100) },
    )
    const known = new Set(input.checks.map((check) => check.id))
    const skip = texts(answer.skip, input.checks.length, 200).filter((id) => known.has(id))
    return skip.length === 0 ? undefined : { skip }
  },
  describe: (advice) => `skip ${advice.skip.join(', ')}`,
}
