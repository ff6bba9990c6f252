import { describe, expect, it } from 'vitest'
import { resolveModelInfo } from '../model/catalog.js'
import { costOf } from '../model/cost.js'
import { renderCostReport } from './cost-report.js'

describe('/cost: prompt-cache hits and the saving', () => {
  it('shows the cached share and the saving priced from the catalog', () => {
    // Gemini 2.5 Pro: input $1.25/M, cached input $0.125/M.
    const usage = {
      inputTokens: 200_000,
      outputTokens: 10_000,
      cacheReadTokens: 800_000,
      cacheWriteTokens: 0,
    }
    const cost = costOf(usage, resolveModelInfo('gemini-2.5-pro'))
    expect(cost.cacheSavingsUsd).toBeCloseTo(0.9)
    const report = renderCostReport(usage, cost)
    expect(report).toContain('cache read 800,000')
    expect(report).toContain(
      '**Prompt cache:** 80% of prompt tokens read from the cache ($0.1000 for reads, $0.0000 for writes); saved $0.9000 against the input price.',
    )
  })

  it("Anthropic's write surcharge counts against the saving until reads pay it back", () => {
    // Claude Sonnet: input $3/M, writes $3.75/M, reads $0.30/M.
    const usage = { inputTokens: 1_000, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 100_000 }
    const cost = costOf(usage, resolveModelInfo('claude-sonnet-4-5'))
    expect(cost.cacheSavingsUsd).toBeCloseTo(-0.075)
    expect(renderCostReport(usage, cost)).toContain(
      'cache writes cost $0.0750 more than reads have saved so far',
    )
  })

  it('says when no cached tokens were reported', () => {
    const usage = { inputTokens: 10, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }
    expect(renderCostReport(usage, costOf(usage, resolveModelInfo('gpt-5')))).toContain(
      '**Prompt cache:** no cached tokens reported yet.',
    )
  })
})
