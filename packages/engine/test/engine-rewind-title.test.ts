/** Issue 39: a session titled after a prompt that a conversation rewind removed does not keep that title. */
import { describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith } from './engine-harness.js'

cleanupTempDirs()

const text = (value: string) => ({ blocks: [{ type: 'text' as const, text: value }] })

describe('the title after a rewind', () => {
  it('follows the first prompt still in the conversation, and is taken again from the next prompt when none is left', async () => {
    const project = buggyProject()
    const t = await engineWith([text('One.'), text('Two.'), text('Three.'), text('Four.')])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    const titleNow = async () =>
      (await t.engine.listSessions(project)).find((row) => row.sessionId === session.id)?.title
    const userIds = () =>
      t
        .events(session, 'messageRecorded')
        .flatMap((event) =>
          event.type === 'messageRecorded' && event.message.role === 'user' ? [event.message.id] : [],
        )

    session.send({ type: 'submit', text: 'first topic' })
    await t.waitFor(session, 'turnFinished')
    session.send({ type: 'submit', text: 'second topic' })
    await t.waitFor(session, 'turnFinished', 2)
    expect(await titleNow()).toBe('first topic')

    // Rewinding the second prompt away leaves the title alone.
    session.send({ type: 'rewind', messageId: userIds()[1] ?? '', scope: 'conversation' })
    await t.waitFor(session, 'rewound')
    await session.idle()
    expect(await titleNow()).toBe('first topic')

    // Rewinding the first prompt away takes its title with it; the next prompt titles the session.
    session.send({ type: 'rewind', messageId: userIds()[0] ?? '', scope: 'conversation' })
    await t.waitFor(session, 'rewound', 2)
    await session.idle()
    await expect.poll(titleNow).not.toBe('first topic')
    session.send({ type: 'submit', text: 'third topic' })
    await t.waitFor(session, 'turnFinished', 3)
    // The title is stored beside the turn, not before its end: wait for the stored state.
    await expect.poll(titleNow).toBe('third topic')
    await t.engine.shutdown()
  })
})
