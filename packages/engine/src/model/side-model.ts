/**
 * One plain completion on a side model (the fast model): the side-model port tools reach (WebFetch
 * answering its prompt from a fetched page), the compaction summary and the decision service all
 * send their prompt through {@link sideModelCompletion}, each with its own system text.
 */
import type { SideModelPort } from '@z-engine/tools'
import { collectStream } from './collect.js'
import type { ModelPort } from './model-port.js'

/** Output tokens a side answer may use (extractions are short). */
const SIDE_MAX_OUTPUT_TOKENS = 4_096

/** What one kind of side completion asks of the model. */
export interface SideCompletionOptions {
  /** The system text (what the model is for). */
  system: string
  /** At most this many output tokens (capped by the model's own limit). */
  maxOutputTokens: number
  /** The request's message id, for logs and scripted tests. */
  messageId: string
  /** Whether an answer with no text is a failure (it throws). */
  requireText: boolean
}

/**
 * A completion on the model `modelRef()` names (resolved at each call, so a model switch applies):
 * one user message, no tools; throws when the model does not resolve or the stream fails.
 */
export function sideModelCompletion(
  models: Pick<ModelPort, 'resolve'>,
  modelRef: () => string,
  options: SideCompletionOptions,
): (prompt: string, signal?: AbortSignal) => Promise<string> {
  return async (prompt, signal) => {
    const ref = modelRef()
    const resolved = models.resolve(ref)
    if (!resolved.ok) throw new Error(resolved.message)
    const { model } = resolved
    const result = await collectStream(
      model.client.stream(
        {
          model: model.id,
          system: [{ text: options.system, cacheable: false }],
          tools: [],
          messages: [{ id: options.messageId, role: 'user', content: [{ type: 'text', text: prompt }] }],
          maxOutputTokens: Math.min(options.maxOutputTokens, model.maxOutputTokens),
        },
        signal,
      ),
    )
    if (!result.ok) throw new Error(result.error.message)
    const text = result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n')
    if (options.requireText && text.trim() === '') throw new Error(`the model ${ref} answered with no text`)
    return text
  }
}

/**
 * The side-model port for WebFetch on `fastModel` (`model.fast`), or undefined when no fast model
 * is configured (WebFetch then returns the page itself and says so).
 */
export function createSideModelPort(
  models: Pick<ModelPort, 'resolve'>,
  fastModel: string | undefined,
): SideModelPort | undefined {
  if (fastModel === undefined) return undefined
  return {
    model: fastModel,
    complete: sideModelCompletion(models, () => fastModel, {
      system: 'You answer questions about a web page from its text, briefly and exactly.',
      maxOutputTokens: SIDE_MAX_OUTPUT_TOKENS,
      messageId: 'side',
      requireText: true,
    }),
  }
}
