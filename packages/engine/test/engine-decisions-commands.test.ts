import { describe, expect, it } from 'vitest'
import { allFeatures, decisionEngine } from './decisions-harness.js'
import { buggyProject, cleanupTempDirs, engineWith } from './engine-harness.js'

cleanupTempDirs()

describe('decision commands (spec 000 "Decision seams": protocol surface)', () => {
  it('/decisions lists every feature with its mode, and says how to turn one on when all are off', async () => {
    const t = await engineWith([])
    const session = await t.engine.openSession({ projectRoot: buggyProject(), model: 'scripted:x' })
    session.send({ type: 'runCommand', name: 'decisions', args: '' })
    await session.idle()
    const [output] = t.events(session, 'commandOutput')
    expect(output).toMatchObject({ name: 'decisions' })
    const markdown = output?.type === 'commandOutput' ? output.markdown : ''
    expect(markdown).toContain('`decisions_review_call` — off — toolGate')
    expect(markdown).toContain('Every feature is off.')
    await t.engine.shutdown()
  })

  it('resolveSuggestion of an unknown suggestion is a specific notice; includeFullHistory says no task view applies', async () => {
    const t = await decisionEngine([], () => undefined)
    const session = await t.engine.openSession({
      projectRoot: buggyProject(),
      model: 'scripted:x',
      settings: allFeatures('on'),
    })
    session.send({ type: 'resolveSuggestion', suggestionId: 'nope', accepted: true })
    session.send({ type: 'includeFullHistory' })
    await session.idle()
    const notices = t.events(session, 'notice').flatMap((event) => (event.type === 'notice' ? [event] : []))
    expect(notices.map((notice) => notice.code)).toEqual(['unknown_suggestion', 'full_history'])
    expect(notices[0]?.message).toContain("No pending suggestion 'nope'")
    expect(t.events(session, 'suggestionResolved')).toEqual([])
    await t.engine.shutdown()
  })
})
