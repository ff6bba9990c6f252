/**
 * Planner figures on a 10,000-message transcript: token estimate, micro-clear and summary-split
 * planning, cache breakpoints. Prints one line per figure (median of several runs).
 */
import { estimateMessagesTokens, planBreakpoints, planMicroClear, planSummary } from '../src/index.js'
import { generateTranscript } from '../src/test-support/transcripts.js'

// 10 turns of 499 rounds (2 parallel calls each) plus prompt and answer: 10 × 1,000 = 10,000 messages.
const messages = generateTranscript(10, 499, { parallel: 2, resultChars: 1_500 })
if (messages.length !== 10_000) throw new Error(`expected 10,000 messages, got ${messages.length}`)
const total = estimateMessagesTokens(messages)

function median(run: () => unknown, times = 9): number {
  const samples: number[] = []
  for (let i = 0; i < times; i++) {
    const start = performance.now()
    run()
    samples.push(performance.now() - start)
  }
  samples.sort((a, b) => a - b)
  return samples[Math.floor(times / 2)]!
}

const figures: [string, number][] = [
  ['estimate 10,000 messages', median(() => estimateMessagesTokens(messages))],
  [
    'planMicroClear 10,000 messages',
    median(() => planMicroClear({ messages, usedTokens: total, windowTokens: total })),
  ],
  ['planSummary 10,000 messages', median(() => planSummary({ messages, windowTokens: total }))],
  [
    'planBreakpoints 10,000 messages',
    median(() => planBreakpoints({ system: [{ cacheable: true }], toolCount: 20, messages })),
  ],
]
console.log(`transcript: ${messages.length} messages, ~${total} estimated tokens`)
for (const [what, ms] of figures) console.log(`${what}: ${ms.toFixed(1)} ms`)
