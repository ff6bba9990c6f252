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
      if (finished.type !== 'turnFinished' || finished.outcome.type !== 'incomplete')
        throw new Error('unreachable')
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

  describe('repeated identical failing tool calls are detected and the model is told', () => {
    it('points out the second identical failure, not a call with changed input', async () => {
      const project = buggyProject()
      const missing = { type: 'tool_use' as const, name: 'Read', input: { file_path: `${project}/nope.js` } }
      const other = { type: 'tool_use' as const, name: 'Read', input: { file_path: `${project}/other.js` } }
      const t = await engineWith([
        { blocks: [missing] },
        { blocks: [other] },
        { blocks: [missing] },
        { blocks: [text('I cannot find it.')] },
      ])
      const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
      session.send({ type: 'submit', text: 'read nope.js' })
      await t.waitFor(session, 'turnFinished')
      const lastOf = (index: number) => JSON.stringify(t.client.requests[index]!.messages.at(-1))
      expect(lastOf(1)).not.toContain('failed 2 times')
      // A different input is a different call.
      expect(lastOf(2)).not.toContain('failed 2 times')
      expect(lastOf(3)).toContain('The same Read call, with the same input, has now failed 2 times in a row')
      await t.engine.shutdown()
    })
  })

  describe('malformed tool-call JSON gets one repair attempt message before counting as a failure', () => {
    it('answers the first malformed call with what was received and the schema; the next counts as a failure', async () => {
      const malformed = { type: 'tool_use' as const, name: 'Read', input: '{"file_path": "math.js' }
      const t = await engineWith([
        { blocks: [malformed] },
        { blocks: [malformed] },
        { blocks: [malformed] },
        { blocks: [text('giving up')] },
      ])
      const session = await t.engine.openSession({ projectRoot: buggyProject(), model: 'scripted:x' })
      session.send({ type: 'submit', text: 'read math.js' })
      await t.waitFor(session, 'turnFinished')
      const lastOf = (index: number) => JSON.stringify(t.client.requests[index]!.messages.at(-1))
      const repair = lastOf(1)
      expect(repair).toContain('Received: {\\"file_path\\": \\"math.js')
      expect(repair).toContain('required fields file_path')
      // The second malformed call is an ordinary failure (no second repair message) …
      expect(lastOf(2)).not.toContain('Received:')
      expect(lastOf(2)).not.toContain('failed 2 times')
      // … so the third identical one is the second counted failure and the model is told.
      expect(lastOf(3)).toContain('has now failed 2 times in a row')
      await t.engine.shutdown()
    })
  })
})
