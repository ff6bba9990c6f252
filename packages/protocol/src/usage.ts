import { type Infer, int, num, obj } from './schema/builder.js'

const count = () => int({ minimum: 0 })
const dollars = () => num({ minimum: 0 })

/** Schema of {@link Usage}. */
export const UsageSchema = obj({
  inputTokens: count(),
  outputTokens: count(),
  cacheReadTokens: count(),
  cacheWriteTokens: count(),
})
/** Token counts reported by a provider for one or more requests. */
export type Usage = Infer<typeof UsageSchema>

/** Schema of {@link Cost}. */
export const CostSchema = obj(
  {
    inputUsd: dollars(),
    outputUsd: dollars(),
    cacheReadUsd: dollars(),
    cacheWriteUsd: dollars(),
    totalUsd: dollars(),
  },
  {
    cacheSavingsUsd: num({
      description:
        'What prompt caching saved against paying the input price for every cached token: cache reads at the input price minus their cost, less any cache-write surcharge (negative while writes cost more than reads saved).',
    }),
  },
)
/** Cost in US dollars, split the way prices are quoted, with what prompt caching saved. */
export type Cost = Infer<typeof CostSchema>

/** A usage with every count at zero. */
export const ZERO_USAGE: Usage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
})

/** A cost of zero. */
export const ZERO_COST: Cost = Object.freeze({
  inputUsd: 0,
  outputUsd: 0,
  cacheReadUsd: 0,
  cacheWriteUsd: 0,
  totalUsd: 0,
})

/** Sums two usages. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  }
}

/** Sums two costs; the saving is kept when either side reports one. */
export function addCost(a: Cost, b: Cost): Cost {
  const sum: Cost = {
    inputUsd: a.inputUsd + b.inputUsd,
    outputUsd: a.outputUsd + b.outputUsd,
    cacheReadUsd: a.cacheReadUsd + b.cacheReadUsd,
    cacheWriteUsd: a.cacheWriteUsd + b.cacheWriteUsd,
    totalUsd: a.totalUsd + b.totalUsd,
  }
  if (a.cacheSavingsUsd !== undefined || b.cacheSavingsUsd !== undefined)
    sum.cacheSavingsUsd = (a.cacheSavingsUsd ?? 0) + (b.cacheSavingsUsd ?? 0)
  return sum
}
