import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EventEnvelope } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { Engine, type Session } from '../src/index.js'
import { ScriptedClient } from '../src/testing.js'
import { buggyProject, cleanupTempDirs, tempDir } from './engine-harness.js'

cleanupTempDirs()

describe('hosts answering from inside their event callback', () => {
  it('accepts an approval answered synchronously in onEvent', async () => {
    const project = buggyProject()
    const home = tempDir('ze-home-')
    const client = new ScriptedClient([
      { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } }] },
      {
        blocks: [
          {
            type: 'tool_use',
            name: 'Edit',
            input: { file_path: join(project, 'math.js'), old_string: 'a - b', new_string: 'a + b' },
          },
        ],
      },
      { blocks: [{ type: 'text', text: 'done' }] },
    ])
    let session: Session | undefined
    const finished: EventEnvelope[] = []
    const engine = await Engine.create({
      home,
      dataDir: join(home, 'data'),
      configDir: join(home, 'config'),
      env: { PATH: process.env.PATH ?? '', HOME: home },
      clientFactory: { createClient: () => ({ ok: true, client, provider: 'scripted', model: 'scripted' }) },
      onEvent: (envelope) => {
        const { event } = envelope
        // Answer at once, from inside the callback, before the engine's publish returns.
        if (event.type === 'approvalRequested') {
          session?.send({
            type: 'resolveApproval',
            approvalId: event.request.id,
            decision: { type: 'allowOnce' },
          })
        }
        if (event.type === 'turnFinished') finished.push(envelope)
      },
    })
    session = await engine.openSession({ projectRoot: project, model: 'scripted:x' })
    // Edits ask in default mode.
    session.send({ type: 'submit', text: 'fix it' })
    while (finished.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(finished[0]!.event).toMatchObject({ outcome: { type: 'done' } })
    expect(JSON.stringify(client.requests[2]!.messages.at(-1))).not.toContain('cancelled')
    expect(readFileSync(join(project, 'math.js'), 'utf8')).toContain('a + b')
    await engine.shutdown()
  })

  it('sends attachments of a submit to the model with the text', async () => {
    const project = buggyProject()
    const home = tempDir('ze-home-')
    const client = new ScriptedClient([{ blocks: [{ type: 'text', text: 'a red pixel' }] }])
    const engine = await Engine.create({
      home,
      dataDir: join(home, 'data'),
      configDir: join(home, 'config'),
      env: { PATH: process.env.PATH ?? '', HOME: home },
      clientFactory: { createClient: () => ({ ok: true, client, provider: 'scripted', model: 'scripted' }) },
    })
    const session = await engine.openSession({ projectRoot: project, model: 'scripted:x' })
    const pixel =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='
    session.send({
      type: 'submit',
      text: 'what is this?',
      attachments: [{ type: 'image', source: { type: 'base64', mediaType: 'image/png', data: pixel } }],
    })
    await session.idle()
    const opening = client.requests[0]!.messages[0]!
    expect(opening.content.map((block) => block.type)).toEqual(['text', 'image'])
    await engine.shutdown()
  })
})
