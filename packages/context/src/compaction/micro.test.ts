import { describe, expect, it } from 'vitest'
import { TranscriptBuilder } from '../test-support/transcripts.js'
import { applyMicroClear, clearedMarker, isClearedResult, planMicroClear } from './micro.js'

const WINDOW = 100_000
const ABOVE_HALF = 50_001

describe('planMicroClear', () => {
  it('does nothing at or under half the window', () => {
    const messages = new TranscriptBuilder().turn(20, { resultChars: 5000 }).messages
    expect(planMicroClear({ messages, usedTokens: 50_000, windowTokens: WINDOW }).clears).toEqual([])
  })

  it('clears every large result but the newest 8, oldest first', () => {
    const messages = new TranscriptBuilder().turn(20, { resultChars: 5000 }).messages
    const plan = planMicroClear({ messages, usedTokens: ABOVE_HALF, windowTokens: WINDOW })
    expect(plan.clears).toHaveLength(12)
    expect(plan.clears.map((clear) => clear.toolUseId)).toEqual(
      messages
        .flatMap((message) => message.content)
        .flatMap((block) => (block.type === 'tool_result' ? [block.toolUseId] : []))
        .slice(0, 12),
    )
    expect(plan.clears[0]!.toolName).toBe('Read')
    expect(plan.clears[0]!.chars).toBe(5000)
    expect(plan.clears[0]!.original).toBe('x'.repeat(5000))
    expect(plan.savedTokens).toBe(12 * 1250)
  })

  it('leaves results under 1,000 characters alone and does not count them as recent', () => {
    const builder = new TranscriptBuilder().user()
    builder.results(builder.assistant(1), 999) // small, old
    for (let i = 0; i < 10; i++) builder.results(builder.assistant(1), 1000)
    for (let i = 0; i < 5; i++) builder.results(builder.assistant(1), 10) // small, newest
    const plan = planMicroClear({ messages: builder.messages, usedTokens: ABOVE_HALF, windowTokens: WINDOW })
    expect(plan.clears).toHaveLength(2)
    expect(plan.clears.every((clear) => clear.chars === 1000)).toBe(true)
  })

  it('honours keep_recent_tool_results, force, and parallel calls', () => {
    const messages = new TranscriptBuilder().turn(3, { parallel: 4, resultChars: 2000 }).messages
    const plan = planMicroClear({
      messages,
      usedTokens: 10,
      windowTokens: WINDOW,
      keepRecent: 2,
      force: true,
    })
    expect(plan.clears).toHaveLength(10)
    // the four results of a round sit in one message, at block indices 0..3
    expect(plan.clears.slice(0, 4).map((clear) => clear.blockIndex)).toEqual([0, 1, 2, 3])
    expect(new Set(plan.clears.slice(0, 4).map((clear) => clear.messageIndex)).size).toBe(1)
    expect(
      planMicroClear({ messages, usedTokens: ABOVE_HALF, windowTokens: WINDOW, keepRecent: 0 }).clears,
    ).toHaveLength(12)
  })

  it('applies markers in place, keeping ids and error flags, and never clears a marker again', () => {
    const messages = new TranscriptBuilder().turn(10, { resultChars: 3000 }).messages
    const plan = planMicroClear({ messages, usedTokens: ABOVE_HALF, windowTokens: WINDOW })
    const cleared = applyMicroClear(
      messages,
      plan.clears.map((clear) => ({
        ...clear,
        marker: clearedMarker(clear, `artifacts/${clear.toolUseId}.txt`),
      })),
    )
    expect(cleared).toHaveLength(messages.length)
    const first = cleared[plan.clears[0]!.messageIndex]!.content[0]!
    expect(first.type).toBe('tool_result')
    if (first.type !== 'tool_result') return
    expect(first.toolUseId).toBe(plan.clears[0]!.toolUseId)
    expect(first.isError).toBe(false)
    expect(isClearedResult(first)).toBe(true)
    expect(first.content[0]).toEqual({
      type: 'text',
      text: `[cleared: 3000 characters of Read output, saved to artifacts/${first.toolUseId}.txt; read that file if you need it again]`,
    })
    // untouched messages are the same objects; the input is unchanged
    expect(cleared[0]).toBe(messages[0])
    expect(messages[plan.clears[0]!.messageIndex]!.content[0]).not.toEqual(first)
    // a second pass finds only what is left
    expect(
      planMicroClear({ messages: cleared, usedTokens: ABOVE_HALF, windowTokens: WINDOW }).clears,
    ).toEqual([])
  })
})
