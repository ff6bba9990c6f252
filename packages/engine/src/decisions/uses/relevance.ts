import { askJson, clip, text } from '../ask-json.js'
import type { DecisionUse } from '../use.js'

/** Numbered lines of a long result, as the relevance use shows them. */
function numbered(resultText: string): string {
  return resultText
    .split('\n')
    .map((line, index) => `${index + 1}: ${line}`)
    .join('\n')
}

/** Points the model at the parts of a long result that matter. */
export const relevance: DecisionUse<'relevance'> = {
  feature: 'decisions_relevance',
  seam: 'relevance',
  summary: 'points at the line ranges of a long result that matter',
  async decide(input, ctx) {
    const lines = input.resultText.split('\n').length
    const answer = await askJson(
      ctx,
      this.feature,
      'This tool result is long. Which line ranges matter for the task (errors, failing tests, the match asked for)? At most 5: {"ranges": [{"from": 1, "to": 10, "why": "..."}]}. Nothing stands out: {"ranges": []}.',
      {
        tool: input.toolName,
        input: clip(JSON.stringify(input.input), 500),
        result: clip(numbered(input.resultText), 12_000),
      },
    )
    const raw = Array.isArray(answer.ranges) ? answer.ranges : []
    const ranges = raw
      .flatMap((range: unknown) => {
        if (typeof range !== 'object' || range === null) return []
        const { from, to, why } = range as Record<string, unknown>
        if (!Number.isInteger(from) || !Number.isInteger(to)) return []
        const start = from as number
        const end = to as number
        if (start < 1 || end < start || end > lines) return []
        return [{ from: start, to: end, why: text(why, 200) ?? 'relevant' }]
      })
      .slice(0, 5)
    return ranges.length === 0 ? undefined : { ranges }
  },
  describe: (advice) => advice.ranges.map((range) => `${range.from}-${range.to}`).join(', '),
}
