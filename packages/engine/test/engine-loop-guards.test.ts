import { describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith } from './engine-harness.js'

cleanupTempDirs()

const text = (value: string) => ({ type: 'text' as const, text: value })

describe('agent loop guards (spec 004 "Agent Loop": recover and guard)', () => {
  describe('completion guard: an empty final answer, or one cut off at the output-token limit, is not a successful turn', () => {
    it('nudges once after an empty answer, and the turn ends done when the model then answers', async () => {
      const t = await engineWith([{ blocks: [] }, { blocks: [text('All fixed.')] }])
      const session = await t.engine.openSession({ projectRoot: buggyProject(), model: 'scripted:x' })
      session.send({ type: 'submit', text: 'fix it' })
      const finished = await t.waitFor(session, 'turnFinished')
      expect(finished).toMatchObject({ outcome: { type: 'done' }, text: 'All fixed.' })
      expect(t.client.requests).toHaveLength(2)
      const nudge = JSON.stringify(t.client.requests[1]!.messages.at(-1))
      expect(nudge).toContain('Your last response was empty')
      await t.engine.shutdown()
    })

    it('ends incomplete (maxTokens) when the answer is cut off again after the nudge, with the reason', async () => {
      const cut = { blocks: [text('The plan is: first')], stopReason: 'max_tokens' as const }
      const t = await engineWith([cut, cut, { blocks: [text('never sent')] }])
      const session = await t.engine.openSession({ projectRoot: buggyProject(), model: 'scripted:x' })
      session.send({ type: 'submit', text: 'write the plan' })
      const finished = await t.waitFor(session, 'turnFinished')
      expect(finished).toMatchObject({ outcome: { type: 'incomplete', reason: 'maxTokens' } })
      if (finished.type !== 'turnFinished' || finished.outcome.type !== 'incomplete') throw new Error('unreachable')
      expect(finished.outcome.message).toContain('output-token limit')
      // Bounded: the first cut-off earned one nudge naming the limit; the second ended the turn.
      expect(t.client.requests).toHaveLength(2)
      const nudge = JSON.stringify(t.client.requests[1]!.messages.at(-1))
      expect(nudge).toContain('cut off at the output-token limit')
      expect(nudge).toContain(String(t.client.requests[0]!.maxOutputTokens))
      await t.engine.shutdown()
    })

    it('ends incomplete (emptyAnswer) after two empty answers; a thinking-only answer counts as empty', async () => {
      const thinkingOnly = { blocks: [{ type: 'thinking' as const, thinking: 'hmm' }] }
      const t = await engineWith([{ blocks: [] }, thinkingOnly])
      const session = await t.engine.openSession({ projectRoot: buggyProject(), model: 'scripted:x' })
      session.send({ type: 'submit', text: 'fix it' })
      const finished = await t.waitFor(session, 'turnFinished')
      expect(finished).toMatchObject({ outcome: { type: 'incomplete', reason: 'emptyAnswer' } })
      expect(t.client.requests).toHaveLength(2)
      await t.engine.shutdown()
    })
  })
})
