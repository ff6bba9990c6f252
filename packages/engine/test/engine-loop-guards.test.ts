import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
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

  describe('completion guard: open work (pending todos, an answer that only promises work, a failing last check)', () => {
    const todoWrite = (statuses: string[]) => ({
      type: 'tool_use' as const,
      name: 'TodoWrite',
      input: {
        todos: statuses.map((status, index) => ({
          content: `Step ${index + 1}`,
          status,
          activeForm: `Doing step ${index + 1}`,
        })),
      },
    })

    it('ends incomplete (pendingTodos) when two todos stay pending and the answer only promises work, after one nudge', async () => {
      const t = await engineWith([
        { blocks: [todoWrite(['completed', 'pending', 'pending'])] },
        { blocks: [text('I will now fix the bug.')] },
        { blocks: [text('I will now fix the bug.')] },
        { blocks: [text('never sent')] },
      ])
      const session = await t.engine.openSession({ projectRoot: buggyProject(), model: 'scripted:x' })
      session.send({ type: 'submit', text: 'fix it' })
      const finished = await t.waitFor(session, 'turnFinished')
      expect(finished).toMatchObject({ outcome: { type: 'incomplete', reason: 'pendingTodos' } })
      if (finished.type !== 'turnFinished' || finished.outcome.type !== 'incomplete')
        throw new Error('unreachable')
      expect(finished.outcome.message).toContain('2 todos')
      // Bounded: one nudge naming the pending items, then the turn ends.
      expect(t.client.requests).toHaveLength(3)
      const nudge = JSON.stringify(t.client.requests[2]!.messages.at(-1))
      expect(nudge).toContain('still pending')
      expect(nudge).toContain('Step 2')
      await t.engine.shutdown()
    })

    it('continues after an answer that only promises work, and ends done once the model does it and answers', async () => {
      const project = buggyProject()
      const t = await engineWith([
        { blocks: [text('Let me look at math.js now.')] },
        { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: `${project}/math.js` } }] },
        { blocks: [text('add() subtracts instead of adding; that is the bug.')] },
      ])
      const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
      session.send({ type: 'submit', text: 'why does the test fail?' })
      const finished = await t.waitFor(session, 'turnFinished')
      expect(finished).toMatchObject({ outcome: { type: 'done' } })
      expect(t.client.requests).toHaveLength(3)
      expect(JSON.stringify(t.client.requests[1]!.messages.at(-1))).toContain('only says what you will do')
      await t.engine.shutdown()
    })

    it('ends incomplete (promisedWork) when the model only promises work again after the nudge', async () => {
      const t = await engineWith([
        { blocks: [text("I'll run the tests next.")] },
        { blocks: [text('Now I will run the tests.')] },
      ])
      const session = await t.engine.openSession({ projectRoot: buggyProject(), model: 'scripted:x' })
      session.send({ type: 'submit', text: 'run the tests' })
      const finished = await t.waitFor(session, 'turnFinished')
      expect(finished).toMatchObject({ outcome: { type: 'incomplete', reason: 'promisedWork' } })
      expect(t.client.requests).toHaveLength(2)
      await t.engine.shutdown()
    })

    it('a finished todo list and a plain answer end done without a nudge', async () => {
      const t = await engineWith([
        { blocks: [todoWrite(['completed', 'completed'])] },
        { blocks: [text('Fixed add() and the test passes.')] },
      ])
      const session = await t.engine.openSession({ projectRoot: buggyProject(), model: 'scripted:x' })
      session.send({ type: 'submit', text: 'fix it' })
      const finished = await t.waitFor(session, 'turnFinished')
      expect(finished).toMatchObject({ outcome: { type: 'done' } })
      expect(t.client.requests).toHaveLength(2)
      await t.engine.shutdown()
    })

    it('ends incomplete (failingCheck) when the last run of a check failed after the turn changed files', async () => {
      const project = buggyProject()
      writeFileSync(join(project, 'package.json'), '{"type":"module","scripts":{"test":"node test.js"}}\n')
      const t = await engineWith(
        [
          {
            blocks: [
              {
                type: 'tool_use',
                name: 'Write',
                input: { file_path: `${project}/notes.txt`, content: 'x\n' },
              },
            ],
          },
          { blocks: [{ type: 'tool_use', name: 'Bash', input: { command: 'npm test' } }] },
          { blocks: [text('Done.')] },
          { blocks: [text('Done.')] },
        ],
        undefined,
        { settings: { permissions: { mode: 'bypass' } } },
      )
      const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
      session.send({ type: 'submit', text: 'fix it' })
      const finished = await t.waitFor(session, 'turnFinished')
      expect(finished).toMatchObject({ outcome: { type: 'incomplete', reason: 'failingCheck' } })
      expect(t.client.requests).toHaveLength(4)
      expect(JSON.stringify(t.client.requests[3]!.messages.at(-1))).toContain('failed')
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
