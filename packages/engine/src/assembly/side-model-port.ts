/**
 * The side-model port (tools' `SideModelPort`): one plain completion on the fast model
 * (`model.fast`), used by WebFetch to answer its prompt from a fetched page. Without a fast model
 * there is no port, and WebFetch returns the page itself and says so.
 */
import type { SideModelPort } from '@z-engine/tools'
import { collectStream } from '../model/collect.js'
import type { SessionModels } from './model-port.js'

/** Output tokens a side answer may use (extractions are short). */
const SIDE_MAX_OUTPUT_TOKENS = 4_096

/** The port for `fastModel`, or undefined when no fast model is configured. */
export function createSideModelPort(
  models: Pick<SessionModels, 'resolve'>,
  fastModel: string | undefined,
): SideModelPort | undefined {
  if (fastModel === undefined) return undefined
  return {
    model: fastModel,
    async complete(prompt, signal) {
      const resolved = models.resolve(fastModel)
      if (!resolved.ok) throw new Error(resolved.message)
      const { model } = resolved
      const result = await collectStream(
        model.client.stream(
          {
            model: model.id,
            system: [
              {
                text: 'You answer questions about a web page from its text, briefly and exactly.',
                cacheable: false,
              },
            ],
            tools: [],
            messages: [{ id: 'side', role: 'user', content: [{ type: 'text', text: prompt }] }],
            maxOutputTokens: Math.min(SIDE_MAX_OUTPUT_TOKENS, model.maxOutputTokens),
          },
          signal,
        ),
      )
      if (!result.ok) throw new Error(result.error.message)
      const text = result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n')
      if (text.trim() === '') throw new Error(`the fast model (${fastModel}) answered with no text`)
      return text
    },
  }
}
