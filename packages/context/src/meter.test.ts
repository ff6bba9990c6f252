import { describe, expect, it } from 'vitest'
import { ContextMeter, promptTokensOf } from './meter.js'
import { checkCompactAtPercent, pressureLevel } from './pressure.js'
import { TranscriptBuilder } from './test-support/transcripts.js'
import { estimateMessagesTokens } from './tokens.js'

const usage = (inputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0) => ({
  inputTokens,
  outputTokens: 50,
  cacheReadTokens,
  cacheWriteTokens,
})

describe('ContextMeter', () => {
  it('estimates everything when nothing was reported', () => {
    const messages = new TranscriptBuilder().turn(2).messages
    const reading = new ContextMeter().measure({ messages, systemTokens: 100, toolTokens: 30 })
    expect(reading.source).toBe('estimated')
    expect(reading.tokens).toBe(130 + estimateMessagesTokens(messages))
  })

  it('adds estimates for messages since the last report to the reported prompt size', () => {
    const builder = new TranscriptBuilder().turn(1)
    const sent = builder.messages.slice()
    const meter = new ContextMeter()
    meter.recordUsage(usage(1000, 5000, 200), sent)
    expect(promptTokensOf(usage(1000, 5000, 200))).toBe(6200)
    builder.turn(1)
    const reading = meter.measure({ messages: builder.messages, systemTokens: 100, toolTokens: 30 })
    expect(reading.source).toBe('reported')
    expect(reading.reportedTokens).toBe(6200)
    expect(reading.estimatedTokens).toBe(estimateMessagesTokens(builder.messages.slice(sent.length)))
    expect(reading.tokens).toBe(6200 + reading.estimatedTokens)
  })

  it('falls back to estimates after reset, a compaction, or a shorter working set', () => {
    const builder = new TranscriptBuilder().turn(3)
    const meter = new ContextMeter()
    meter.recordUsage(usage(9999), builder.messages)
    const input = { systemTokens: 0, toolTokens: 0 }
    expect(meter.measure({ ...input, messages: builder.messages.slice(0, 2) }).source).toBe('estimated')
    expect(meter.measure({ ...input, messages: builder.messages.slice(1) }).source).toBe('estimated')
    meter.reset()
    expect(meter.measure({ ...input, messages: builder.messages }).source).toBe('estimated')
  })
})

describe('pressureLevel', () => {
  it('clears above half the window and compacts above compact_at_percent', () => {
    expect(pressureLevel(50_000, 100_000, 92)).toBe('none')
    expect(pressureLevel(50_001, 100_000, 92)).toBe('clear')
    expect(pressureLevel(92_000, 100_000, 92)).toBe('clear')
    expect(pressureLevel(92_001, 100_000, 92)).toBe('compact')
    expect(pressureLevel(60_001, 100_000, 60)).toBe('compact')
    expect(pressureLevel(10, 0, 92)).toBe('none')
  })

  it('accepts compact_at_percent from 50 to 99 only', () => {
    expect(checkCompactAtPercent(92)).toEqual({ ok: true, value: 92 })
    expect(checkCompactAtPercent(50)).toEqual({ ok: true, value: 50 })
    expect(checkCompactAtPercent(99)).toEqual({ ok: true, value: 99 })
    for (const bad of [49, 100, 92.5, '92', null]) {
      const result = checkCompactAtPercent(bad)
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.error).toContain('from 50 to 99')
    }
  })
})
