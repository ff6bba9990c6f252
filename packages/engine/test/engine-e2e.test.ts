import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EngineEvent, EventEnvelope } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import type { Session } from '../src/index.js'
import type { ScriptSource } from '../src/testing.js'
import { buggyProject, cleanupTempDirs, engineWith, fixTheBugResponses } from './engine-harness.js'

cleanupTempDirs()

async function untilFinished(session: Session, envelopes: EventEnvelope[], count = 1): Promise<EngineEvent> {
  for (;;) {
    const finished = envelopes.filter(
      (envelope) => envelope.sessionId === session.id && envelope.event.type === 'turnFinished',
    )
    if (finished.length >= count) return finished[count - 1]!.event
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

const fixScript = (project: string): ScriptSource => fixTheBugResponses(project)

describe('Engine end to end (scripted model, real tools, real git)', () => {
  it('fixes the bug: Read, Edit, Bash runs the test, and the test passes afterwards', async () => {
    const project = buggyProject()
    const { engine, client, envelopes } = await engineWith(fixScript(project))
    const session = await engine.openSession({ projectRoot: project, mode: 'bypass', model: 'scripted:x' })
    session.send({ type: 'submit', text: 'The test fails. Fix it.' })
    const finished = await untilFinished(session, envelopes)
    expect(finished).toMatchObject({ type: 'turnFinished', outcome: { type: 'done' }, mutated: true })
    expect(readFileSync(join(project, 'math.js'), 'utf8')).toContain('a + b')
    expect(execFileSync('node', ['test.js'], { cwd: project, encoding: 'utf8' })).toContain('PASS')
    // The Bash result the model saw says PASS.
    const lastRequest = client.requests.at(-1)!
    expect(JSON.stringify(lastRequest.messages.at(-1))).toContain('PASS')
    // A checkpoint was taken before the turn, outside the project.
    expect(envelopes.some((envelope) => envelope.event.type === 'checkpointCreated')).toBe(true)
    await engine.shutdown()
  })

  it('resumes the same session from disk and continues with the whole conversation', async () => {
    const project = buggyProject()
    const first = await engineWith(fixScript(project))
    const session = await first.engine.openSession({
      projectRoot: project,
      mode: 'bypass',
      model: 'scripted:x',
    })
    session.send({ type: 'submit', text: 'The test fails. Fix it.' })
    await untilFinished(session, first.envelopes)
    const sessionId = session.id
    await first.engine.shutdown()

    const second = await engineWith(
      [{ blocks: [{ type: 'text', text: 'Yes, it was the subtraction.' }] }],
      first.home,
    )
    const resumed = await second.engine.openSession({ projectRoot: project, resume: sessionId })
    expect(resumed.mode).toBe('bypass')
    resumed.send({ type: 'submit', text: 'Was it the subtraction?' })
    const finished = await untilFinished(resumed, second.envelopes)
    expect(finished).toMatchObject({ outcome: { type: 'done' } })
    const request = second.client.requests[0]!
    // Four rounds of the first turn plus the opening message, then the new prompt.
    expect(request.messages.length).toBe(1 + 4 + 3 + 1)
    expect(JSON.stringify(request.messages)).toContain('The test fails. Fix it.')
    await second.engine.shutdown()
  })

  it('asks before an edit in default mode and applies it once allowed', async () => {
    const project = buggyProject()
    const { engine, envelopes } = await engineWith(fixScript(project))
    const session = await engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'Fix it.' })
    for (let answered = 0; answered < 2; ) {
      const asks = envelopes.filter((envelope) => envelope.event.type === 'approvalRequested')
      if (asks.length > answered) {
        const event = asks[answered]!.event
        if (event.type !== 'approvalRequested') throw new Error('unexpected')
        session.send({
          type: 'resolveApproval',
          approvalId: event.request.id,
          decision: { type: 'allowOnce' },
        })
        answered += 1
      }
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    const finished = await untilFinished(session, envelopes)
    expect(finished).toMatchObject({ outcome: { type: 'done' } })
    const asked = envelopes.flatMap((envelope) =>
      envelope.event.type === 'approvalRequested' ? [envelope.event.request.toolName] : [],
    )
    expect(asked).toEqual(['Edit', 'Bash'])
    expect(readFileSync(join(project, 'math.js'), 'utf8')).toContain('a + b')
    await engine.shutdown()
  })

  it('runs two sessions in one process without interfering', async () => {
    const a = buggyProject()
    const b = buggyProject()
    const { engine, envelopes } = await engineWith((_request, index) => ({
      blocks: [{ type: 'text', text: `reply ${index}` }],
    }))
    const [sa, sb] = await Promise.all([
      engine.openSession({ projectRoot: a, model: 'scripted:x', mode: 'plan' }),
      engine.openSession({ projectRoot: b, model: 'scripted:x' }),
    ])
    sa.send({ type: 'submit', text: 'hello a' })
    sb.send({ type: 'submit', text: 'hello b' })
    await Promise.all([untilFinished(sa, envelopes), untilFinished(sb, envelopes)])
    expect(sa.id).not.toBe(sb.id)
    expect(sa.mode).toBe('plan')
    expect(sb.mode).toBe('default')
    const listed = await engine.listSessions()
    expect(listed.map((summary) => summary.sessionId).sort()).toEqual([sa.id, sb.id].sort())
    // Each session's events are numbered on their own, gap-free.
    for (const session of [sa, sb]) {
      const seqs = envelopes
        .filter((envelope) => envelope.sessionId === session.id)
        .map((envelope) => envelope.seq)
      expect(seqs).toEqual(seqs.map((_, index) => index))
    }
    await engine.shutdown()
  })
})
