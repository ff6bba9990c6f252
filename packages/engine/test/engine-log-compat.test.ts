import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
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
})
