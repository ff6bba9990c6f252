/**
 * The chat's pickers over a real engine (Ink's test renderer): `/rewind` and Esc Esc (a message,
 * then a scope, through the engine's rewind) and `/resume` (another stored session of the project).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { KEYS, renderChat, scriptedEngine } from './harness.js'

const text = (value: string) => ({ blocks: [{ type: 'text' as const, text: value }] })
const write = (path: string, content: string, id: string) => ({
  blocks: [{ type: 'tool_use' as const, id, name: 'Write', input: { file_path: path, content } }],
})

describe('chat pickers', () => {
  it('rewinds code and conversation to before a chosen message, leaving the user’s own file', async () => {
    const setup = await scriptedEngine([
      write('a.txt', 'one\n', 'w1'),
      text('Wrote one.'),
      write('a.txt', 'two\n', 'w2'),
      text('Wrote two.'),
    ])
    const chat = await renderChat(setup, { mode: 'acceptEdits' })
    await chat.type('first change', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('Wrote one.') && !frame.includes('working'), 'turn one')
    await chat.type('second change', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('Wrote two.') && !frame.includes('working'), 'turn two')
    expect(readFileSync(join(setup.project, 'a.txt'), 'utf8')).toBe('two\n')
    writeFileSync(join(setup.project, 'mine.txt'), 'by hand\n')

    // Esc Esc on the empty prompt opens the picker with the latest message selected.
    await chat.type(KEYS.escape, KEYS.escape)
    const picker = await chat.waitFor((frame) => frame.includes('Rewind: go back'), 'the message picker')
    expect(picker).toMatch(/❯ second change/)
    expect(picker).toContain('  first change')
    await chat.type(KEYS.enter)
    const scopes = await chat.waitFor(
      (frame) => frame.includes('Restore code and conversation'),
      'the scopes',
    )
    expect(scopes).toContain('Restore conversation only')
    expect(scopes).toContain('Restore code only')
    await chat.type(KEYS.enter)
    const done = await chat.waitFor((frame) => frame.includes('Rewound to before'), 'the rewind')
    expect(done).toContain('Rewound to before “second change” (code and conversation)')
    await chat.waitFor((frame) => frame.includes('Restored 1 file: a.txt'), 'what was restored')
    expect(readFileSync(join(setup.project, 'a.txt'), 'utf8')).toBe('one\n')
    expect(readFileSync(join(setup.project, 'mine.txt'), 'utf8')).toBe('by hand\n')
    // The message is back in the prompt, and the picker now offers only the first one.
    expect(chat.frame()).toContain('› second change')
    await chat.type('\u0015', '/rewind', KEYS.enter)
    const again = await chat.waitFor((frame) => frame.includes('Rewind: go back'), 'the picker again')
    const box = again.slice(again.indexOf('Rewind: go back'))
    expect(box).toMatch(/❯ first change/)
    expect(box).not.toContain('second change')
    await chat.type(KEYS.escape)
    await chat.waitFor((frame) => !frame.includes('Rewind: go back'), 'the picker closed')
  })

  it('rewinds the conversation only, keeping the files', async () => {
    const setup = await scriptedEngine([write('b.txt', 'made\n', 'w1'), text('Made b.')])
    const chat = await renderChat(setup, { mode: 'acceptEdits' })
    await chat.type('make b', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('Made b.') && !frame.includes('working'), 'the answer')
    await chat.type('/rewind', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('❯ make b'), 'the picker')
    await chat.type(KEYS.enter)
    await chat.waitFor((frame) => frame.includes('❯ Restore code and conversation'), 'the scopes')
    await chat.type(KEYS.down)
    await chat.waitFor((frame) => frame.includes('❯ Restore conversation only'), 'the scope chosen')
    await chat.type(KEYS.enter)
    await chat.waitFor((frame) => frame.includes('(conversation only)'), 'the rewind')
    expect(readFileSync(join(setup.project, 'b.txt'), 'utf8')).toBe('made\n')
    const replayed = await setup.engine.store.replay(chat.session.id)
    if (!replayed.ok) throw new Error(replayed.error.message)
    expect(replayed.value.snapshot.transcript.filter((item) => item.kind === 'message')).toHaveLength(0)
  })

  it('/resume lists the project’s other sessions by title and switches to the chosen one', async () => {
    const setup = await scriptedEngine([text('Stored answer.')])
    const earlier = await setup.engine.openSession({ projectRoot: setup.project })
    earlier.send({ type: 'submit', text: 'an earlier question' })
    await new Promise<void>((resolve) => {
      const off = setup.feed.subscribe((envelope) => {
        if (envelope.sessionId === earlier.id && envelope.event.type === 'turnFinished') {
          off()
          resolve()
        }
      })
    })
    await earlier.close()
    const chat = await renderChat(setup)
    await chat.type('/resume', KEYS.enter)
    const picker = await chat.waitFor((frame) => frame.includes('an earlier question'), 'the session picker')
    expect(picker).toContain('Resume a session of this project')
    expect(picker).toMatch(/just now · [0-9a-f]{8}/)
    await chat.type(KEYS.enter)
    await chat.waitFor((frame) => frame.includes('Stored answer.'), 'the resumed transcript')
    expect(chat.controller.session.id).toBe(earlier.id)
  })
})
