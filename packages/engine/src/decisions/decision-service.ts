import type { SideModelPort } from '@z-engine/tools'
import { collectStream } from '../model/collect.js'
import type { ModelPort } from '../session/services.js'

/** Output budget of one decision: advice is a small JSON object. */
export const DECISION_MAX_OUTPUT_TOKENS = 1_024

const SYSTEM =
  'You are the decision service of a coding agent. You advise at one point of its loop. You answer with one JSON object, exactly as asked, and abstain (an empty object) when unsure.'

/**
 * The decision service: the fast model (`decisions.model`, else `model.fast`, else the session's
 * model) behind the side-model port. Every failure throws; the hub turns that into an abstention.
 */
export function decisionService(models: ModelPort, modelRef: () => string): SideModelPort {
  return {
    async complete(prompt, signal) {
      const resolved = models.resolve(modelRef())
      if (!resolved.ok) throw new Error(resolved.message)
      const { model } = resolved
      const result = await collectStream(
        model.client.stream(
          {
            model: model.id,
            system: [{ text: SYSTEM, cacheable: false }],
            tools: [],
            messages: [{ id: 'decision', role: 'user', content: [{ type: 'text', text: prompt }] }],
            maxOutputTokens: Math.min(DECISION_MAX_OUTPUT_TOKENS, model.maxOutputTokens),
          },
          signal,
        ),
      )
      if (!result.ok) throw new Error(result.error.message)
      return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n')
    },
  }
}
