import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { LOG_FORMAT_VERSION, parseLogRecord } from '@z-engine/protocol'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

afterEach(cleanupTempDirs)

// Logs written by earlier engines, one folder per format version (see fixtures/write-log-fixture.ts).
const fixtures = join(import.meta.dirname, 'fixtures')
const versions = readdirSync(fixtures).filter((name) => /^log-v\d+$/.test(name))

describe('logs written by earlier engines', () => {
  it('has a fixture of every format still read', () => {
    expect(versions).toContain('log-v2')
  })

  it.each(versions)('%s resumes: mode, model, title, todos, usage and the conversation', async (version) => {
    const [sessionId] = readdirSync(join(fixtures, version))
    if (sessionId === undefined) throw new Error(`no session in ${version}`)
    const home = tempDir('ze-compat-home-')
    cpSync(join(fixtures, version, sessionId), join(home, 'data', 'sessions', sessionId), { recursive: true })
    const project = tempDir('ze-compat-proj-')
    mkdirSync(project, { recursive: true })
    writeFileSync(join(project, 'notes.txt'), 'remember the milk\n')

    const { engine, client, waitFor } = await engineWith(
      [{ blocks: [{ type: 'text', text: 'Milk, as listed.' }] }],
      home,
    )
    const replayed = await engine.store.replay(sessionId)
    if (!replayed.ok) throw new Error(replayed.error.message)
    expect(replayed.value.problems).toEqual([])
    expect(replayed.value.snapshot).toMatchObject({
      title: 'Groceries',
      mode: 'acceptEdits',
      model: 'scripted:x',
      todos: [{ content: 'buy milk', status: 'in_progress' }],
      usage: { inputTokens: 40, outputTokens: 20 },
    })

    const session = await engine.openSession({ projectRoot: project, resume: sessionId })
    expect(session.mode).toBe('acceptEdits')
    expect(session.model).toBe('scripted:x')
    session.send({ type: 'submit', text: 'And the list?' })
    const finished = await waitFor(session, 'turnFinished')
    expect(finished).toMatchObject({ type: 'turnFinished', outcome: { type: 'done' } })
    // The model saw the whole earlier turn: the prompt, the four rounds, then the new prompt.
    const sent = client.requests[0]!.messages
    expect(sent.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ])
    expect(JSON.stringify(sent)).toContain('What do the notes say? Write a list.')
    expect(JSON.stringify(sent)).toContain('remember the milk')
    await engine.shutdown()
  })

  it.each(versions)("%s forks into today's format and rewinds its conversation", async (version) => {
    const [sessionId] = readdirSync(join(fixtures, version))
    if (sessionId === undefined) throw new Error(`no session in ${version}`)
    const home = tempDir('ze-compat-home-')
    cpSync(join(fixtures, version, sessionId), join(home, 'data', 'sessions', sessionId), { recursive: true })
    const project = tempDir('ze-compat-proj-')
    mkdirSync(project, { recursive: true })
    const { engine, client, waitFor } = await engineWith(
      [
        { blocks: [{ type: 'text', text: 'Forked and answering.' }] },
        { blocks: [{ type: 'text', text: 'Starting over.' }] },
      ],
      home,
    )
    const original = await engine.store.replay(sessionId)
    if (!original.ok) throw new Error(original.error.message)
    const prompt = original.value.snapshot.transcript.find(
      (item) => item.kind === 'message' && item.message.role === 'user',
    )
    if (prompt?.kind !== 'message') throw new Error('the fixture has no prompt')

    // Fork: every copied line is rewritten in today's vocabulary under a header of today's format.
    const forked = await engine.store.fork(sessionId, {
      uptoRecordId: original.value.snapshot.lastRecordId ?? '',
    })
    if (!forked.ok) throw new Error(forked.error.message)
    const lines = readFileSync(join(home, 'data', 'sessions', forked.value, 'log.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown)
    expect(lines[0]).toMatchObject({
      type: 'header',
      formatVersion: LOG_FORMAT_VERSION,
      parent: { sessionId },
    })
    for (const line of lines) expect(parseLogRecord(line)).toMatchObject({ ok: true })
    const fork = await engine.store.replay(forked.value)
    if (!fork.ok) throw new Error(fork.error.message)
    expect(fork.value.problems).toEqual([])
    expect({ ...fork.value.snapshot.transcript }).toEqual({ ...original.value.snapshot.transcript })
    const forkSession = await engine.openSession({ projectRoot: project, resume: forked.value })
    forkSession.send({ type: 'submit', text: 'Anything else?' })
    await waitFor(forkSession, 'turnFinished')
    expect(JSON.stringify(client.requests[0]!.messages)).toContain('remember the milk')

    // Rewind the resumed original to before its first prompt: the conversation starts over.
    const session = await engine.openSession({ projectRoot: project, resume: sessionId })
    session.send({ type: 'rewind', messageId: prompt.message.id, scope: 'conversation' })
    const rewound = await waitFor(session, 'rewound')
    expect(rewound).toMatchObject({ type: 'rewound', messageId: prompt.message.id, scope: 'conversation' })
    session.send({ type: 'submit', text: 'Start again.' })
    await waitFor(session, 'turnFinished')
    const sent = client.requests[1]!.messages
    expect(sent).toHaveLength(1)
    expect(JSON.stringify(sent)).not.toContain('remember the milk')
    // The original keeps its format-2 header and lines; today's records follow them, and both replay.
    const mixed = await engine.store.replay(sessionId)
    if (!mixed.ok) throw new Error(mixed.error.message)
    expect(mixed.value.problems).toEqual([])
    expect(mixed.value.snapshot.formatVersion).toBe(2)
    expect(mixed.value.snapshot.turns.map((turn) => turn.outcome.type)).toEqual(['done'])
    await engine.shutdown()
  })
})
