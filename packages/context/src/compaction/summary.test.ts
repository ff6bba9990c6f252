import type { Message } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { generateTranscript, TranscriptBuilder } from '../test-support/transcripts.js'
import { estimateMessagesTokens } from '../tokens.js'
import { planSummary } from './summary.js'

/** A brute-force reading of spec 003's split rules, to check the planner against. */
function isValidCut(messages: readonly Message[], cut: number): boolean {
  if (cut < 2 || cut >= messages.length) return false
  const first = messages[cut]!
  if (first.role === 'user' && first.content.some((block) => block.type === 'tool_result')) return false
  const calledBefore = new Set(
    messages.slice(0, cut).flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []))),
  )
  return !messages
    .slice(cut)
    .some((m) => m.content.some((b) => b.type === 'tool_result' && calledBefore.has(b.toolUseId)))
}

function expectedCut(messages: readonly Message[], keep: number): number | null {
  const cuts = messages.map((_, index) => index).filter((index) => isValidCut(messages, index))
  const enough = cuts.filter(
    (cut) => messages.length - cut >= 2 && estimateMessagesTokens(messages.slice(cut)) >= keep,
  )
  if (enough.length > 0) return enough.at(-1)!
  return cuts[0] ?? null
}

/** A deterministic pseudo-random generator so failures reproduce. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff
    return state / 0x7fffffff
  }
}

describe('planSummary', () => {
  it('never summarizes fewer than two messages', () => {
    const two = new TranscriptBuilder().turn(0).messages
    expect(planSummary({ messages: two, windowTokens: 1000 }).kind).toBe('skip')
    const three = new TranscriptBuilder().turn(0).user('next').messages
    const plan = planSummary({ messages: three, windowTokens: 1000, keepRecentTokens: 1 })
    // the only cut that summarizes two messages keeps one, so it is the fallback
    expect(plan).toMatchObject({ kind: 'split', cut: 2, keepsEnough: false })
  })

  it('cuts at the start of a real user turn when turns are short', () => {
    const messages = generateTranscript(10, 0)
    // 20 messages of ~4 tokens; keep at least 6 tokens and 2 messages
    const plan = planSummary({ messages, windowTokens: 1000, keepRecentTokens: 6 })
    expect(plan).toMatchObject({ kind: 'split', cut: 18, keepsEnough: true })
    expect(messages[18]!.role).toBe('user')
  })

  it('splits a single 300-round turn in the middle, at an assistant message', () => {
    const messages = generateTranscript(1, 300, { resultChars: 400 })
    expect(messages).toHaveLength(602)
    const total = estimateMessagesTokens(messages)
    const plan = planSummary({ messages, windowTokens: total, keepRecentTokens: Math.floor(total * 0.2) })
    expect(plan.kind).toBe('split')
    if (plan.kind !== 'split') return
    expect(plan.cut).toBeGreaterThan(1)
    expect(messages[plan.cut]!.role).toBe('assistant')
    expect(plan.keptTokens).toBeGreaterThanOrEqual(Math.floor(total * 0.2))
    expect(plan.summarizedTokens + plan.keptTokens).toBe(total)
    expect(plan.cut).toBe(expectedCut(messages, Math.floor(total * 0.2)))
    // the latest such cut: one assistant message later would keep too little
    expect(estimateMessagesTokens(messages.slice(plan.cut + 2))).toBeLessThan(Math.floor(total * 0.2))
  })

  it('never separates parallel tool calls from their results', () => {
    const messages = generateTranscript(3, 40, { parallel: 5, resultChars: 300 })
    for (const keep of [1, 50, 500, 5000, 20_000, 10_000_000]) {
      const plan = planSummary({ messages, windowTokens: 100_000, keepRecentTokens: keep })
      expect(plan.kind).toBe('split')
      if (plan.kind === 'split') {
        expect(isValidCut(messages, plan.cut)).toBe(true)
        expect(plan.cut).toBe(expectedCut(messages, keep))
      }
    }
  })

  it('matches the brute-force rules on random transcripts', () => {
    const next = random(7)
    for (let run = 0; run < 150; run++) {
      const builder = new TranscriptBuilder()
      const turns = 1 + Math.floor(next() * 5)
      for (let turn = 0; turn < turns; turn++) {
        builder.turn(Math.floor(next() * 8), {
          parallel: 1 + Math.floor(next() * 3),
          resultChars: Math.floor(next() * 3000),
        })
      }
      // sometimes a turn that is still open: the last round's results and no final answer yet
      if (next() < 0.3) builder.results(builder.assistant(2))
      const messages = builder.messages
      const keep = Math.floor(next() * estimateMessagesTokens(messages))
      const plan = planSummary({ messages, windowTokens: 10_000, keepRecentTokens: keep })
      const expected = expectedCut(messages, keep)
      if (expected === null || messages.length < 3) {
        expect(plan.kind).toBe('skip')
      } else {
        expect(plan).toMatchObject({ kind: 'split', cut: expected })
      }
    }
  })

  it('refuses when every possible cut would split a call from its result', () => {
    const builder = new TranscriptBuilder().user()
    const early = builder.assistant(1)
    builder.user('interjection') // not a cut point: the call above is still open
    builder.assistant(0)
    builder.results(early)
    const plan = planSummary({ messages: builder.messages, windowTokens: 1000, keepRecentTokens: 1 })
    expect(plan.kind).toBe('skip')
  })

  it('defaults to keeping 20% of the window', () => {
    const messages = generateTranscript(1, 100, { resultChars: 4000 })
    const plan = planSummary({ messages, windowTokens: 100_000 })
    expect(plan.kind === 'split' && plan.keptTokens).toBeGreaterThanOrEqual(20_000)
    expect(plan.kind === 'split' && plan.keptTokens).toBeLessThan(22_100)
  })
})
