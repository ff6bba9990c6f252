import { askJson, clip, texts } from '../ask-json.js'
import type { DecisionUse } from '../use.js'

/** Notes put ahead of a result: a warning buried in output, a failure reported as success. */
export const callNotes: DecisionUse<'afterCall'> = {
  feature: 'decisions_call_notes',
  seam: 'afterCall',
  summary: 'notes ahead of a result about what the agent might miss in it',
  async decide(input, ctx) {
    const answer = await askJson(
      ctx,
      this.feature,
      'A tool call finished. Is there something in its result the agent could easily miss (a warning buried in output, a partial failure reported as success)? At most 2 short notes: {"notes": ["..."]}. Nothing: {"notes": []}.',
      {
        tool: input.toolName,
        input: clip(JSON.stringify(input.input), 1_000),
        isError: input.isError,
        result: clip(input.resultText),
      },
    )
    const notes = texts(answer.notes, 2, 300)
    return notes.length === 0 ? undefined : { notes }
  },
  describe: (advice) => `${advice.notes.length} note(s)`,
}
