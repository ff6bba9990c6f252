/** Cost of reported usage, from catalog prices. Cost always uses the provider's counts, never estimates. */
import type { Cost, Usage } from '@z-engine/protocol'
import type { ModelInfo, ModelPrices } from './catalog.js'

/**
 * Dollars for one usage. `inputTokens` are the uncached input tokens (adapters subtract cache reads
 * and writes from providers that include them), so each count is priced once.
 */
export function costOf(usage: Usage, model: ModelInfo | ModelPrices): Cost {
  const prices = 'prices' in model ? model.prices : model
  const perToken = (tokens: number, perMillion: number): number => (tokens * perMillion) / 1_000_000
  const inputUsd = perToken(usage.inputTokens, prices.inputPerMillion)
  const outputUsd = perToken(usage.outputTokens, prices.outputPerMillion)
  const cacheReadUsd = perToken(usage.cacheReadTokens, prices.cacheReadPerMillion)
  const cacheWriteUsd = perToken(usage.cacheWriteTokens, prices.cacheWritePerMillion)
  // Without caching, every cached token would have been billed as input.
  const uncachedUsd = perToken(usage.cacheReadTokens + usage.cacheWriteTokens, prices.inputPerMillion)
  return {
    inputUsd,
    outputUsd,
    cacheReadUsd,
    cacheWriteUsd,
    totalUsd: inputUsd + outputUsd + cacheReadUsd + cacheWriteUsd,
    cacheSavingsUsd: uncachedUsd - cacheReadUsd - cacheWriteUsd,
  }
}

/** The share of prompt tokens read from the cache (0–1), for display; 0 when nothing was sent. */
export function cacheHitRatio(usage: Usage): number {
  const prompt = promptTokensOf(usage)
  return prompt === 0 ? 0 : usage.cacheReadTokens / prompt
}

/** The prompt size the provider saw: uncached input plus cache reads and writes (for the context meter). */
export function promptTokensOf(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens
}
