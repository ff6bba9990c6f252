import { askJson, texts } from '../ask-json.js'
import type { DecisionUse } from '../use.js'

/**
 * screen_request: judges which likely credentials in new tool results really are credentials. The
 * decision model sees each value's context with the value masked, never the value itself.
 */
export const screenRequest: DecisionUse<'beforeRequest'> = {
  feature: 'decisions_screen_request',
  seam: 'beforeRequest',
  summary: 'asks the user before likely credentials in new tool results are sent',
  async decide(input, ctx) {
    const candidates = input.candidates.map((candidate, index) => ({
      id: `c${index + 1}`,
      tool: candidate.toolName,
      kind: candidate.kind,
      context: candidate.context,
      length: candidate.value.length,
    }))
    const answer = await askJson(
      ctx,
      this.feature,
      'New tool results contain values that may be credentials (masked as ****). Which are likely real credentials (not examples, placeholders, hashes or ids)? {"flagged": ["c1"]}. None: {"flagged": []}.',
      { candidates },
    )
    const flagged = new Set(texts(answer.flagged, 50, 20))
    const values = input.candidates.filter((_, index) => flagged.has(`c${index + 1}`)).map((c) => c.value)
    return values.length === 0 ? undefined : { flagged: values }
  },
  describe: (advice) => `${advice.flagged.length} likely credential(s)`,
}
