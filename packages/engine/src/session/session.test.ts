import { isPersistedEvent, type ToolResultBlock } from '@z-engine/protocol'
import type { ToolCtx } from '@z-engine/tools'
import { describe, expect, it } from 'vitest'
import { recordingTool, testSession } from './session-harness.test-util.js'

const toolUse = (name: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, name, input })
const text = (value: string) => ({ type: 'text' as const, text: value })

describe('session turns (spec 001 "Conversations, turns and rounds")', () => {
  it('runs a turn of two rounds and journals every persisted event before publishing it', async () => {
    const read = recordingTool('Read')
    const t = testSession({
      tools: [read.tool],
      script: [
        { blocks: [text('Looking.'), toolUse('Read', { path: 'a.ts' })] },
        { blocks: [text('All done.')] },
      ],
    })
    t.session.send({ type: 'submit', text: 'read a.ts' })
    const finished = await t.waitFor('turnFinished')
    expect(finished).toMatchObject({
      type: 'turnFinished',
      outcome: { type: 'done' },
      badge: { type: 'notApplicable' },
    })
    expect(read.calls).toEqual([{ path: 'a.ts' }])
    expect(t.records.map((record) => record.type)).toEqual([
      // The session takes its title from the first prompt.
      'titleChanged',
      'turnStarted',
      'messageRecorded',
      'usageUpdated',
      'messageRecorded',
      'messageRecorded',
      'usageUpdated',
      'messageRecorded',
      'turnFinished',
    ])
    // One vocabulary: each record is the published event plus its id, time and scope, and every
    // persisted event published was journaled.
    const persisted = t.envelopes
      .filter((envelope) => isPersistedEvent(envelope.event))
      .map((envelope) => ({ ...envelope.event, ...(envelope.turnId ? { turnId: envelope.turnId } : {}) }))
    expect(t.records.map(({ id: _id, at: _at, ...body }) => body)).toEqual(persisted)
    // Journal before publish: every messageRecorded event's message is already in the records.
    const recordedIds = t.records.flatMap((record) =>
      record.type === 'messageRecorded' ? [record.message.id] : [],
    )
    const publishedIds = t
      .events('messageRecorded')
      .map((event) => (event.type === 'messageRecorded' ? event.message.id : ''))
    expect(publishedIds).toEqual(recordedIds)
    // The second request extends the first byte for byte.
    const [first, second] = t.client.requests
    expect(JSON.stringify(second!.messages).startsWith(JSON.stringify(first!.messages).slice(0, -1))).toBe(
      true,
    )
    expect(JSON.stringify(second!.system)).toBe(JSON.stringify(first!.system))
    await t.session.close()
  })

  it('queues steering sent during a long tool call and delivers it with the results', async () => {
    const slow = recordingTool('Bash', { readOnly: false, delayMs: 150 })
    const t = testSession({
      tools: [slow.tool],
      script: [{ blocks: [toolUse('Bash', { path: 'x' })] }, { blocks: [text('ok')] }],
    })
    t.session.send({ type: 'submit', text: 'run it' })
    await t.waitFor('toolStarted')
    t.session.send({ type: 'submit', text: 'also check the logs' })
    await t.waitFor('turnFinished')
    const second = t.client.requests[1]!
    const last = second.messages.at(-1)!
    expect(last.role).toBe('user')
    expect(last.content[0]!.type).toBe('tool_result')
    expect(last.content[1]).toEqual(text('also check the logs'))
    expect(t.events('steeringQueued')).toHaveLength(1)
    await t.session.close()
  })

  it('leaves a valid transcript when cancelled mid-tool', async () => {
    const slow = recordingTool('Bash', { readOnly: false, delayMs: 5_000 })
    const t = testSession({
      tools: [slow.tool],
      script: [{ blocks: [toolUse('Bash', { path: 'x' }), toolUse('Bash', { path: 'y' })] }],
    })
    t.session.send({ type: 'submit', text: 'go' })
    await t.waitFor('toolStarted')
    t.session.send({ type: 'cancel' })
    const finished = await t.waitFor('turnFinished')
    expect(finished).toMatchObject({ outcome: { type: 'cancelled' } })
    const messages = t.records.flatMap((record) =>
      record.type === 'messageRecorded' ? [record.message] : [],
    )
    const results = messages.at(-1)!.content as ToolResultBlock[]
    expect(results.map((block) => block.type)).toEqual(['tool_result', 'tool_result'])
    expect(results.map((block) => (block.content[0]?.type === 'text' ? block.content[0].text : ''))).toEqual([
      'cancelled by user',
      'cancelled by user',
    ])
    await t.session.close()
  })

  it('interrupts mid-stream without recording a partial assistant message', async () => {
    const t = testSession({ script: [{ blocks: [text('x'.repeat(2_000))] }], clientDelayMs: 5 })
    t.session.send({ type: 'submit', text: 'write a lot' })
    await t.waitFor('textDelta')
    t.session.send({ type: 'interrupt' })
    const finished = await t.waitFor('turnFinished')
    expect(finished).toMatchObject({ outcome: { type: 'interrupted' } })
    expect(t.records.filter((record) => record.type === 'messageRecorded')).toHaveLength(1)
    await t.session.close()
  })

  it('asks, and answers two approvals in reverse order', async () => {
    const edit = recordingTool('Edit', { readOnly: false })
    const t = testSession({
      tools: [edit.tool],
      decide: () => ({
        decision: 'ask',
        reason: 'edits ask in default mode',
        suggestion: { rule: 'Edit(src/**)', scope: 'project' },
      }),
      script: [
        { blocks: [toolUse('Edit', { path: 'a' }), toolUse('Edit', { path: 'b' })] },
        { blocks: [text('done')] },
      ],
    })
    t.session.send({ type: 'submit', text: 'edit both' })
    const second = await t.waitFor('approvalRequested', 2)
    const first = t.events('approvalRequested')[0]!
    if (first.type !== 'approvalRequested' || second.type !== 'approvalRequested')
      throw new Error('unexpected')
    t.session.send({
      type: 'resolveApproval',
      approvalId: second.request.id,
      decision: { type: 'deny', feedback: 'not b' },
    })
    t.session.send({
      type: 'resolveApproval',
      approvalId: first.request.id,
      decision: { type: 'allowProject', rule: 'Edit(src/**)' },
    })
    await t.waitFor('turnFinished')
    expect(edit.calls).toEqual([{ path: 'a' }])
    expect(t.granted).toEqual([{ rule: 'Edit(src/**)', scope: 'project' }])
    const results = t.client.requests[1]!.messages.at(-1)!.content as ToolResultBlock[]
    expect(results[1]!.content[0]).toEqual(text('The user denied this action. Feedback from the user: not b'))
    expect(t.records.filter((record) => record.type === 'approvalResolved')).toHaveLength(2)
    await t.session.close()
  })

  it('continues at most five times when a Stop hook keeps blocking', async () => {
    let stops = 0
    const t = testSession({
      hooks: {
        stop: async () => {
          stops += 1
          return { blocked: 'run the tests first' }
        },
      },
      script: (_request, index) => ({ blocks: [text(`answer ${index}`)] }),
    })
    t.session.send({ type: 'submit', text: 'finish' })
    await t.waitFor('turnFinished')
    expect(stops).toBe(5)
    expect(t.client.requests).toHaveLength(6)
    await t.session.close()
  })

  it('ends as budget exhausted at agents.max_turns', async () => {
    const read = recordingTool('Read')
    const t = testSession({
      tools: [read.tool],
      maxTurns: 3,
      script: () => ({ blocks: [toolUse('Read', { path: 'a' })] }),
    })
    t.session.send({ type: 'submit', text: 'loop' })
    const finished = await t.waitFor('turnFinished')
    expect(finished).toMatchObject({ outcome: { type: 'budgetExhausted', budget: 'maxTurns' } })
    expect(t.client.requests).toHaveLength(3)
    await t.session.close()
  })

  it('asks the user a question through the interaction port and returns the answer', async () => {
    const answers: Array<string[][] | undefined> = []
    const askTool = {
      ...recordingTool('AskUserQuestion').tool,
      isConcurrencySafe: () => false,
      call: async (_input: Record<string, unknown>, ctx: ToolCtx, signal: AbortSignal) => {
        const answer = await ctx.ports.interaction!.ask(
          [
            {
              question: 'Which DB?',
              header: 'DB',
              options: [{ label: 'pg', description: '' }],
              multiSelect: false,
            },
          ],
          signal,
        )
        answers.push(answer)
        await ctx.ports.interaction!.updateTodos([{ content: 'use pg', status: 'pending' }])
        return { ok: true as const, output: { content: [text(JSON.stringify(answer))] } }
      },
    }
    const t = testSession({
      tools: [askTool],
      script: [{ blocks: [toolUse('AskUserQuestion', {})] }, { blocks: [text('ok')] }],
    })
    t.session.send({ type: 'submit', text: 'set up the db' })
    const asked = await t.waitFor('questionAsked')
    if (asked.type !== 'questionAsked') throw new Error('unexpected')
    t.session.send({
      type: 'answerQuestion',
      questionId: asked.question.id,
      response: { type: 'answered', answers: [{ question: 'Which DB?', selected: ['pg'] }] },
    })
    await t.waitFor('turnFinished')
    expect(answers).toEqual([[['pg']]])
    expect(t.records.map((record) => record.type)).toContain('todosUpdated')
    expect(t.core.state.todos).toEqual([{ content: 'use pg', status: 'pending' }])
    await t.session.close()
  })

  it('fails the turn with a typed error the user can act on', async () => {
    const t = testSession({
      script: [{ error: { kind: 'authentication', message: 'Set ANTHROPIC_API_KEY.' } }],
    })
    t.session.send({ type: 'submit', text: 'hi' })
    const finished = await t.waitFor('turnFinished')
    expect(finished).toMatchObject({ outcome: { type: 'failed', error: { code: 'authentication' } } })
    await t.session.close()
  })
})

describe('steering that arrives as a turn ends', () => {
  it('starts the next turn instead of waiting for another message', async () => {
    const t = testSession({
      script: (_request, index) => ({ blocks: [text(`answer ${index}`)] }),
      syncDelayMs: 100,
    })
    t.session.send({ type: 'submit', text: 'first' })
    // turnFinished is published before the journal sync ends the turn: the message is steering.
    await t.waitFor('turnFinished')
    t.session.send({ type: 'submit', text: 'second' })
    const second = await t.waitFor('turnFinished', 2)
    expect(second).toMatchObject({ outcome: { type: 'done' } })
    expect(JSON.stringify(t.client.requests[1]!.messages.at(-1))).toContain('second')
    await t.session.close()
  })
})

describe('a checkpoint still being taken when its turn ends (issue 17)', () => {
  it('does not hold up turnFinished or the next turn; the record follows, and close waits for it', async () => {
    // Each checkpoint is held until the test lets it finish: the order is proved, not timed.
    const held: Array<() => void> = []
    const marks: string[] = []
    const t = testSession({
      script: (_request, index) => ({ blocks: [text(`answer ${index}`)] }),
      checkpoints: {
        create: (messageId, turnId) =>
          new Promise((resolve) => {
            held.push(() => resolve({ id: `cp-${messageId}`, messageId, commit: 'c0ffee', turnId }))
          }),
        afterTurn: async (turnId, before, mutated) => {
          marks.push(`${turnId} ${before?.commit} ${mutated}`)
        },
        restore: async () => ({
          restored: [],
          skipped: [],
          leftAlone: [],
          unmarkedTurns: [],
          merged: [],
          conflicts: [],
        }),
      },
    })
    t.session.send({ type: 'submit', text: 'first' })
    expect(await t.waitFor('turnFinished')).toMatchObject({ outcome: { type: 'done' } })
    await t.session.idle()
    expect(held).toHaveLength(1)
    expect(t.events('checkpointCreated')).toEqual([])
    expect(marks).toEqual([])
    expect(t.session.busy).toBe(false)

    // The next message starts a turn of its own (not steering), though the first checkpoint waits.
    t.session.send({ type: 'submit', text: 'second' })
    await t.waitFor('turnFinished', 2)
    expect(t.events('steeringQueued')).toEqual([])
    expect(t.events('turnStarted')).toHaveLength(2)
    expect(t.events('checkpointCreated')).toEqual([])

    // The second turn's checkpoint starts after the first one (checkpoint work is one queue).
    expect(held).toHaveLength(1)

    // Closing waits for both checkpoints and journals their records before the log closes.
    let closed = false
    const closing = t.session.close().then(() => {
      closed = true
    })
    let released = 0
    while (!closed) {
      await new Promise((resolve) => setImmediate(resolve))
      if (released === held.length) continue
      expect(closed).toBe(false)
      held[released++]!()
    }
    await closing
    expect(released).toBe(2)
    // Each turn's end was marked once its checkpoint was taken (they wrote nothing).
    const turnIds = t.events('turnStarted').map((event) => (event.type === 'turnStarted' ? event.turnId : ''))
    expect(marks).toEqual(turnIds.map((turnId) => `${turnId} c0ffee false`))
    const types = t.records.map((record) => record.type)
    expect(types.filter((type) => type === 'checkpointCreated')).toHaveLength(2)
    expect(types.lastIndexOf('checkpointCreated')).toBeLessThan(t.recordsAtClose() ?? -1)
    expect(types.indexOf('checkpointCreated')).toBeGreaterThan(types.indexOf('turnFinished'))
  })
})
