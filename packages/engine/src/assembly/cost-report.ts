/** The `/cost` answer: spend, token counts, and what the prompt cache read and saved. */
import type { Cost, Usage } from '@z-engine/protocol'
import { cacheHitRatio } from '../model/cost.js'

const money = (usd: number) => `$${usd.toFixed(Math.abs(usd) < 1 ? 4 : 2)}`
const tokens = (count: number) => count.toLocaleString('en-US')

/** Markdown for `/cost` from the session's usage and cost (subagents included). */
export function renderCostReport(usage: Usage, cost: Cost): string {
  const lines = [
    `**Cost:** ${money(cost.totalUsd)}`,
    `Input ${tokens(usage.inputTokens)} · output ${tokens(usage.outputTokens)} · cache read ${tokens(usage.cacheReadTokens)} · cache write ${tokens(usage.cacheWriteTokens)} tokens`,
  ]
  if (usage.cacheReadTokens === 0 && usage.cacheWriteTokens === 0) {
    lines.push('**Prompt cache:** no cached tokens reported yet.')
    return lines.join('\n')
  }
  const percent = Math.round(cacheHitRatio(usage) * 100)
  const savings = cost.cacheSavingsUsd ?? 0
  const verdict =
    savings >= 0
      ? `saved ${money(savings)}`
      : `cache writes cost ${money(-savings)} more than reads have saved so far`
  lines.push(
    `**Prompt cache:** ${percent}% of prompt tokens read from the cache (${money(cost.cacheReadUsd)} for reads, ${money(cost.cacheWriteUsd)} for writes); ${verdict} against the input price.`,
  )
  return lines.join('\n')
}
