/**
 * Issue 17 "Checkpoints never block and never run away": a session started in the home directory
 * takes no checkpoint and says so; a checkpoint beyond `checkpoints.max_files` is skipped with one
 * notice per session, copying nothing, while the turn's tools run as usual.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EngineEvent } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith, fixTheBugResponses, tempDir } from './engine-harness.js'

cleanupTempDirs()

const notices = (events: EngineEvent[]) =>
  events.flatMap((event) => (event.type === 'notice' ? [event.message] : []))

describe('checkpoint limits', () => {
  it('takes no checkpoint in the home directory, with a notice, and the turn still works', async () => {
    const home = tempDir('ze-home-')
    writeFileSync(join(home, 'notes.txt'), 'hello\n')
    const read = { type: 'tool_use' as const, name: 'Read', input: { file_path: join(home, 'notes.txt') } }
    const t = await engineWith([{ blocks: [read] }, { blocks: [{ type: 'text', text: 'Read it.' }] }], home)
    const session = await t.engine.openSession({ projectRoot: home, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'Read my notes.' })
    expect(await t.waitFor(session, 'turnFinished')).toMatchObject({ outcome: { type: 'done' } })
    await t.engine.shutdown()
    expect(t.events(session, 'checkpointCreated')).toEqual([])
    expect(notices(t.events(session))).toContainEqual(
      expect.stringContaining('Checkpoints are off for this session: it was started in your home directory'),
    )
    expect(t.events(session, 'toolFinished')).toMatchObject([{ toolName: 'Read', status: 'ok' }])
  })

  it('skips a checkpoint beyond checkpoints.max_files once a session, copying nothing', async () => {
    const project = buggyProject()
    for (let i = 0; i < 8; i++) writeFileSync(join(project, `extra${i}.txt`), `${i}\n`)
    const home = tempDir('ze-home-')
    mkdirSync(join(home, 'config'))
    writeFileSync(join(home, 'config', 'settings.toml'), '[checkpoints]\nmax_files = 5\n')
    const t = await engineWith(
      [...fixTheBugResponses(project), { blocks: [{ type: 'text', text: 'Again.' }] }],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, mode: 'bypass', model: 'scripted:x' })
    session.send({ type: 'submit', text: 'Fix the bug.' })
    expect(await t.waitFor(session, 'turnFinished')).toMatchObject({ outcome: { type: 'done' } })
    session.send({ type: 'submit', text: 'Anything else?' })
    await t.waitFor(session, 'turnFinished', 2)
    await t.engine.shutdown()
    expect(t.events(session, 'checkpointCreated')).toEqual([])
    const budget = notices(t.events(session)).filter((message) => message.includes('checkpoint budget'))
    expect(budget).toHaveLength(1)
    expect(budget[0]).toContain('more than 5 files to capture')
    expect(budget[0]).toContain('checkpoints.max_files')
    // The edit still happened; the shadow repository holds no objects.
    expect(
      t.events(session, 'toolFinished').map((event) => event.type === 'toolFinished' && event.status),
    ).toEqual(['ok', 'ok', 'ok'])
    const shadow = join(home, 'data', 'checkpoints')
    for (const repo of readdirSync(shadow)) {
      const objects = readdirSync(join(shadow, repo, 'objects')).filter((name) => /^[0-9a-f]{2}$/.test(name))
      expect(objects).toEqual([])
    }
  })
})
