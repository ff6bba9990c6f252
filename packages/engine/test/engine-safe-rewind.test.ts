/**
 * Issue 19 "Safe rewind": rewinding code reverts only what the agent's tool calls and shell
 * commands changed since the target, as Claude Code does; the user's own edits and new files
 * stay, and a notice says so.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

describe('safe rewind', () => {
  it("reverts the agent's writes and shell changes, leaves the user's edits and files alone", async () => {
    const project = buggyProject()
    writeFileSync(join(project, 'notes.md'), 'the user owns this\n')
    const home = tempDir('ze-home-')
    const call = (name: string, input: Record<string, unknown>) => ({
      blocks: [{ type: 'tool_use' as const, name, input }],
    })
    const t = await engineWith(
      [
        // An existing file is read before it is written.
        call('Read', { file_path: join(project, 'math.js') }),
        call('Write', {
          file_path: join(project, 'math.js'),
          content: 'export function add(a, b) {\n  return a + b\n}\n',
        }),
        call('Bash', { command: 'echo generated > build.txt' }),
        { blocks: [{ type: 'text', text: 'Fixed.' }] },
        call('Write', { file_path: join(project, 'later.txt'), content: 'second turn\n' }),
        { blocks: [{ type: 'text', text: 'Done.' }] },
      ],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, mode: 'bypass', model: 'scripted:x' })
    session.send({ type: 'submit', text: 'Fix add.' })
    await t.waitFor(session, 'turnFinished')
    // Between the turns the user edits a file and creates one by hand.
    writeFileSync(join(project, 'notes.md'), 'the user edited this\n')
    writeFileSync(join(project, 'mine.txt'), 'created by hand\n')
    session.send({ type: 'submit', text: 'One more file.' })
    await t.waitFor(session, 'turnFinished', 2)
    // And after the second turn, another edit of the user's.
    writeFileSync(join(project, 'test.js'), '// the user rewrote the test\n')

    const [first] = t.events(session, 'checkpointCreated')
    if (first?.type !== 'checkpointCreated') throw new Error('no checkpoint')
    session.send({ type: 'rewind', messageId: first.checkpoint.messageId, scope: 'code' })
    const rewound = await t.waitFor(session, 'rewound')
    const notices = t.events(session, 'notice').map((event) => (event.type === 'notice' ? event.message : ''))
    await t.engine.shutdown()

    expect(rewound).toMatchObject({
      restoredFiles: expect.arrayContaining(['build.txt', 'later.txt', 'math.js']),
    })
    expect(rewound.type === 'rewound' ? [...(rewound.restoredFiles ?? [])].sort() : []).toEqual([
      'build.txt',
      'later.txt',
      'math.js',
    ])
    expect(readFileSync(join(project, 'math.js'), 'utf8')).toContain('a - b')
    expect(existsSync(join(project, 'build.txt'))).toBe(false)
    expect(existsSync(join(project, 'later.txt'))).toBe(false)
    expect(readFileSync(join(project, 'notes.md'), 'utf8')).toBe('the user edited this\n')
    expect(readFileSync(join(project, 'mine.txt'), 'utf8')).toBe('created by hand\n')
    expect(readFileSync(join(project, 'test.js'), 'utf8')).toBe('// the user rewrote the test\n')
    expect(notices.join('\n')).toContain(
      'left 3 file(s) the agent did not change as they are: mine.txt, notes.md, test.js',
    )
  })

  it('keeps a file the agent wrote and the user then edited; a dry run changes nothing; undo puts the files back', async () => {
    const project = buggyProject()
    const home = tempDir('ze-home-')
    const call = (name: string, input: Record<string, unknown>) => ({
      blocks: [{ type: 'tool_use' as const, name, input }],
    })
    const t = await engineWith(
      [
        call('Write', { file_path: join(project, 'a.txt'), content: 'agent a\n' }),
        call('Bash', { command: 'echo agent b > b.txt' }),
        { blocks: [{ type: 'text', text: 'Wrote a and b.' }] },
      ],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, mode: 'bypass', model: 'scripted:x' })
    session.send({ type: 'submit', text: 'Write a and b.' })
    await t.waitFor(session, 'turnFinished')
    // The user edits the agent's b.txt by hand afterwards, and creates c.txt.
    writeFileSync(join(project, 'b.txt'), 'the user fixed b\n')
    writeFileSync(join(project, 'c.txt'), 'mine\n')
    const [first] = t.events(session, 'checkpointCreated')
    if (first?.type !== 'checkpointCreated') throw new Error('no checkpoint')
    const messageId = first.checkpoint.messageId

    // A dry run lists what would happen and writes nothing.
    session.send({ type: 'rewind', messageId, scope: 'both', dryRun: true })
    const previewed = await t.waitFor(session, 'rewindPreviewed')
    expect(previewed).toMatchObject({
      restoreFiles: ['a.txt'],
      skippedFiles: ['b.txt'],
      leftAloneFiles: ['c.txt'],
      removedMessageIds: expect.arrayContaining([messageId]),
    })
    expect(readFileSync(join(project, 'a.txt'), 'utf8')).toBe('agent a\n')
    expect(t.events(session, 'rewound')).toEqual([])

    session.send({ type: 'rewind', messageId, scope: 'code' })
    const rewound = await t.waitFor(session, 'rewound')
    expect(rewound).toMatchObject({
      restoredFiles: ['a.txt'],
      skippedFiles: ['b.txt'],
      leftAloneFiles: ['c.txt'],
    })
    expect(existsSync(join(project, 'a.txt'))).toBe(false)
    expect(readFileSync(join(project, 'b.txt'), 'utf8')).toBe('the user fixed b\n')
    expect(readFileSync(join(project, 'c.txt'), 'utf8')).toBe('mine\n')
    const notices = () =>
      t.events(session, 'notice').map((event) => (event.type === 'notice' ? event.message : ''))
    expect(notices().join('\n')).toContain(
      'kept 1 file(s) the agent changed that were edited by hand afterwards: b.txt',
    )

    // Undo puts a.txt back; a second undo has nothing to do.
    session.send({ type: 'undoRewind' })
    expect(await t.waitFor(session, 'rewindUndone')).toMatchObject({
      restoredFiles: ['a.txt'],
      skippedFiles: [],
    })
    expect(readFileSync(join(project, 'a.txt'), 'utf8')).toBe('agent a\n')
    session.send({ type: 'undoRewind' })
    await session.idle()
    expect(notices().join('\n')).toContain('Nothing to undo')

    // includeEdited reverts the edited file too.
    session.send({ type: 'rewind', messageId, scope: 'code', includeEdited: true })
    const forced = await t.waitFor(session, 'rewound', 2)
    await t.engine.shutdown()
    expect(forced).toMatchObject({ restoredFiles: ['a.txt', 'b.txt'], skippedFiles: [] })
    expect(existsSync(join(project, 'b.txt'))).toBe(false)
    expect(readFileSync(join(project, 'c.txt'), 'utf8')).toBe('mine\n')
  })
})
