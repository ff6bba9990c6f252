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
      'kept 1 file(s) the agent changed that were edited afterwards and cannot be merged (binary, created or removed): b.txt',
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

  it("reverts only the agent's hunks in a file edited afterwards; an overlapping hunk is left and reported", async () => {
    const project = buggyProject()
    const lines = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`)
    writeFileSync(join(project, 'list.txt'), `${lines.join('\n')}\n`)
    writeFileSync(join(project, 'clash.txt'), `${lines.join('\n')}\n`)
    const home = tempDir('ze-home-')
    const call = (name: string, input: Record<string, unknown>) => ({
      blocks: [{ type: 'tool_use' as const, name, input }],
    })
    const t = await engineWith(
      [
        call('Read', { file_path: join(project, 'list.txt') }),
        call('Edit', {
          file_path: join(project, 'list.txt'),
          old_string: 'line 2\n',
          new_string: 'AGENT 2\n',
        }),
        call('Read', { file_path: join(project, 'clash.txt') }),
        call('Edit', {
          file_path: join(project, 'clash.txt'),
          old_string: 'line 5\n',
          new_string: 'AGENT 5\n',
        }),
        { blocks: [{ type: 'text', text: 'Edited.' }] },
      ],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, mode: 'bypass', model: 'scripted:x' })
    session.send({ type: 'submit', text: 'Edit the lists.' })
    await t.waitFor(session, 'turnFinished')
    // The user then edits another part of list.txt, and the agent's own line of clash.txt.
    const edit = (file: string, from: string, to: string) =>
      writeFileSync(join(project, file), readFileSync(join(project, file), 'utf8').replace(from, to))
    edit('list.txt', 'line 15\n', 'USER 15\n')
    edit('clash.txt', 'AGENT 5\n', 'USER 5\n')
    edit('clash.txt', 'line 18\n', 'USER 18\n')
    const [first] = t.events(session, 'checkpointCreated')
    if (first?.type !== 'checkpointCreated') throw new Error('no checkpoint')
    const messageId = first.checkpoint.messageId

    // The dry run shows the hunks it would write and changes nothing.
    session.send({ type: 'rewind', messageId, scope: 'code', dryRun: true })
    const previewed = await t.waitFor(session, 'rewindPreviewed')
    if (previewed.type !== 'rewindPreviewed') throw new Error('no preview')
    expect(previewed.mergeFiles).toEqual(['clash.txt', 'list.txt'])
    expect(previewed.skippedFiles).toEqual([])
    const listHunks = previewed.changes?.find((change) => change.path === 'list.txt')?.unifiedDiff ?? ''
    expect(listHunks).toContain('-AGENT 2')
    expect(listHunks).toContain('+line 2')
    expect(listHunks).not.toContain('USER 15')
    expect(readFileSync(join(project, 'list.txt'), 'utf8')).toContain('AGENT 2')

    session.send({ type: 'rewind', messageId, scope: 'code' })
    const rewound = await t.waitFor(session, 'rewound')
    expect(rewound).toMatchObject({
      restoredFiles: [],
      skippedFiles: [],
      mergedFiles: ['clash.txt', 'list.txt'],
      conflictFiles: [
        { path: 'clash.txt', hunks: [{ current: 'USER 5', agent: 'AGENT 5', restored: 'line 5' }] },
      ],
    })
    const list = readFileSync(join(project, 'list.txt'), 'utf8')
    expect(list).toContain('line 2\n')
    expect(list).not.toContain('AGENT 2')
    expect(list).toContain('USER 15\n')
    // The overlapping hunk is left as the user has it; the user's other edit stays.
    expect(readFileSync(join(project, 'clash.txt'), 'utf8')).toBe(
      `${lines.join('\n').replace('line 5', 'USER 5').replace('line 18', 'USER 18')}\n`,
    )
    const notices = t.events(session, 'notice').map((event) => (event.type === 'notice' ? event.message : ''))
    expect(notices.join('\n')).toContain(
      "Rewind reverted only the agent's hunks in 1 file(s) edited afterwards, keeping the later edits: list.txt",
    )
    expect(notices.join('\n')).toContain('Rewind left 1 hunk(s) of clash.txt where later edits overlap')

    // The other choice: revert that file whole.
    session.send({ type: 'rewind', messageId, scope: 'code', includeEdited: true, only: ['clash.txt'] })
    const whole = await t.waitFor(session, 'rewound', 2)
    await t.engine.shutdown()
    expect(whole).toMatchObject({ restoredFiles: ['clash.txt'] })
    expect(readFileSync(join(project, 'clash.txt'), 'utf8')).toBe(`${lines.join('\n')}\n`)
    expect(readFileSync(join(project, 'list.txt'), 'utf8')).toContain('USER 15\n')
  })
})
