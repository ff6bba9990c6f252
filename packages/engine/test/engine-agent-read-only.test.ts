/**
 * Spec 004 / issue 21 "Declared, never fired": a read-only Agent call does not mark the turn as
 * changed (no "unverified" badge, no end-of-turn tree mark); one whose subagent writes does.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

afterAll(() => cleanupTempDirs())

const agentCall = (prompt: string) => ({
  blocks: [
    {
      type: 'tool_use' as const,
      name: 'Agent',
      input: { subagent_type: 'general', description: 'look', prompt },
    },
  ],
})

describe('a read-only Agent call does not mark the turn as changed', { timeout: 60_000 }, () => {
  it('a subagent that only reads leaves turnFinished.mutated false; one that edits sets it', async () => {
    const project = buggyProject()
    const t = await engineWith([
      agentCall('Read math.js.'),
      { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } }] },
      { blocks: [{ type: 'text', text: 'It adds.' }] },
      { blocks: [{ type: 'text', text: 'The agent read it.' }] },
      agentCall('Fix math.js.'),
      {
        blocks: [
          {
            type: 'tool_use',
            name: 'Write',
            input: { file_path: join(project, 'notes.txt'), content: 'x\n' },
          },
        ],
      },
      { blocks: [{ type: 'text', text: 'Wrote it.' }] },
      { blocks: [{ type: 'text', text: 'The agent wrote.' }] },
    ])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'Look.' })
    const first = await t.waitFor(session, 'turnFinished')
    expect(first).toMatchObject({
      outcome: { type: 'done' },
      mutated: false,
      badge: { type: 'notApplicable' },
    })
    session.send({ type: 'submit', text: 'Write.' })
    const second = await t.waitFor(session, 'turnFinished', 2)
    expect(second).toMatchObject({ outcome: { type: 'done' }, mutated: true })
    await t.engine.shutdown()
  })
})

describe('@agent-<name> in an ordinary message', { timeout: 60_000 }, () => {
  it('adds a reminder to use that agent type; an unknown name adds nothing', async () => {
    const project = buggyProject()
    const t = await engineWith([{ blocks: [{ type: 'text', text: 'ok' }] }])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'Ask @agent-general to check, not @agent-nobody.' })
    await t.waitFor(session, 'turnFinished')
    const opening = JSON.stringify(t.client.requests[0]!.messages.at(-1)?.content ?? [])
    expect(opening).toContain('Use the Agent tool with subagent_type \\"general\\"')
    expect(opening).not.toContain('subagent_type \\"nobody\\"')
    await t.engine.shutdown()
  })
})

describe('worktree isolation outside a git repository', { timeout: 60_000 }, () => {
  it('falls back to the shared folder with a notice instead of refusing', async () => {
    const project = tempDir('ze-plain-')
    writeFileSync(join(project, 'a.txt'), 'a\n')
    const t = await engineWith([
      {
        blocks: [
          {
            type: 'tool_use',
            name: 'Agent',
            input: {
              subagent_type: 'general',
              description: 'look',
              prompt: 'Read a.txt.',
              isolation: 'worktree',
            },
          },
        ],
      },
      { blocks: [{ type: 'text', text: 'It says a.' }] },
      { blocks: [{ type: 'text', text: 'Done.' }] },
    ])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'Look.' })
    await t.waitFor(session, 'turnFinished')
    expect(t.events(session, 'notice')).toContainEqual(
      expect.objectContaining({ code: 'agent_worktree_unavailable' }),
    )
    expect(t.events(session, 'toolFinished')).toMatchObject([{ toolName: 'Agent', status: 'ok' }])
    await t.engine.shutdown()
  })
})
