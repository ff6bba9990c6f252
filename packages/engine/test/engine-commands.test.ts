import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith } from './engine-harness.js'

cleanupTempDirs()

describe('runCommand (spec 000 "Commands")', () => {
  it('answers /cost, /mode and /todos without the model', async () => {
    const project = buggyProject()
    const t = await engineWith([])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'runCommand', name: 'cost', args: '' })
    session.send({ type: 'runCommand', name: 'mode', args: 'plan' })
    session.send({ type: 'runCommand', name: 'todos', args: '' })
    await session.idle()
    const outputs = t.events(session, 'commandOutput')
    expect(outputs.map((event) => (event.type === 'commandOutput' ? event.name : ''))).toEqual([
      'cost',
      'todos',
    ])
    expect(session.mode).toBe('plan')
    expect(t.client.requests).toHaveLength(0)
    await t.engine.shutdown()
  })

  it('/todos marks pending ☐, in progress ◼ (bold) and done ☒', async () => {
    const project = buggyProject()
    const t = await engineWith([
      {
        blocks: [
          {
            type: 'tool_use',
            name: 'TodoWrite',
            input: {
              todos: [
                { content: 'Read', status: 'completed', activeForm: 'Reading' },
                { content: 'Fix', status: 'in_progress', activeForm: 'Fixing' },
                { content: 'Test', status: 'pending', activeForm: 'Testing' },
              ],
            },
          },
        ],
      },
      { blocks: [{ type: 'text', text: 'Planned.' }] },
    ])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'plan it' })
    await t.waitFor(session, 'turnFinished')
    session.send({ type: 'runCommand', name: 'todos', args: '' })
    await session.idle()
    const output = t.events(session, 'commandOutput').at(-1)
    expect(output?.type === 'commandOutput' ? output.markdown : '').toBe(
      '- ☒ Read\n- **◼ Fix** (in progress)\n- ☐ Test',
    )
    await t.engine.shutdown()
  })

  it('expands a project command with $ARGUMENTS into a turn with two text blocks', async () => {
    const project = buggyProject()
    mkdirSync(join(project, '.z-engine', 'commands'), { recursive: true })
    writeFileSync(
      join(project, '.z-engine', 'commands', 'explain.md'),
      '---\ndescription: Explain a file\n---\nExplain $ARGUMENTS in one paragraph.\n',
    )
    const t = await engineWith([{ blocks: [{ type: 'text', text: 'It adds.' }] }])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'runCommand', name: 'explain', args: 'math.js' })
    await t.waitFor(session, 'turnFinished')
    const opening = t.client.requests[0]!.messages[0]!
    expect(opening.content[0]).toEqual({ type: 'text', text: '/explain math.js' })
    expect(opening.content[1]).toMatchObject({ type: 'text' })
    const body = opening.content[1]!.type === 'text' ? opening.content[1]!.text : ''
    expect(body).toContain('<command name="explain">')
    expect(body).toContain('Explain math.js in one paragraph.')
    await t.engine.shutdown()
  })

  it('gives a notice with close matches for an unknown command', async () => {
    const project = buggyProject()
    const t = await engineWith([])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'runCommand', name: 'cosst', args: '' })
    await session.idle()
    const notices = t.events(session, 'notice').map((event) => (event.type === 'notice' ? event.message : ''))
    expect(
      notices.some((message) => message.includes('Unknown command /cosst') && message.includes('/cost')),
    ).toBe(true)
    await t.engine.shutdown()
  })

  it('/remember appends to AGENTS.md and the next request carries it in the system prompt', async () => {
    const project = buggyProject()
    const t = await engineWith([{ blocks: [{ type: 'text', text: 'ok' }] }])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'runCommand', name: 'remember', args: 'Use tabs for indentation.' })
    await session.idle()
    expect(readFileSync(join(project, 'AGENTS.md'), 'utf8')).toContain('Use tabs for indentation.')
    session.send({ type: 'submit', text: 'hi' })
    await t.waitFor(session, 'turnFinished')
    expect(JSON.stringify(t.client.requests[0]!.system)).toContain('Use tabs for indentation.')
    await t.engine.shutdown()
  })

  it('runs a user ! command, shows its output and tells the model with the next message', async () => {
    const project = buggyProject()
    const t = await engineWith([{ blocks: [{ type: 'text', text: 'seen' }] }])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'runShell', command: 'node test.js' })
    await session.idle()
    const output = t.events(session, 'commandOutput')[0]
    expect(output?.type === 'commandOutput' && output.markdown).toContain('FAIL: add(2, 3) = -1')
    session.send({ type: 'submit', text: 'why does it fail?' })
    await t.waitFor(session, 'turnFinished')
    expect(JSON.stringify(t.client.requests[0]!.messages[0])).toContain('FAIL: add(2, 3) = -1')
    await t.engine.shutdown()
  })

  it('trustWorkspace records trust and applies the project allow rules it withheld', async () => {
    const project = buggyProject()
    mkdirSync(join(project, '.z-engine'), { recursive: true })
    writeFileSync(
      join(project, '.z-engine', 'settings.toml'),
      '[permissions]\nallow = ["Bash(node test.js)"]\n',
    )
    const bash = { type: 'tool_use' as const, name: 'Bash', input: { command: 'node test.js' } }
    const t = await engineWith([{ blocks: [bash] }, { blocks: [{ type: 'text', text: 'ran' }] }])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    const required = t.events(session, 'trustRequired')[0]
    expect(required?.type === 'trustRequired' && required.categories.length).toBeGreaterThan(0)
    session.send({ type: 'trustWorkspace', trusted: true })
    await session.idle()
    session.send({ type: 'submit', text: 'run the test' })
    await t.waitFor(session, 'turnFinished')
    expect(t.events(session, 'approvalRequested')).toHaveLength(0)
    expect(readFileSync(join(t.home, 'config', 'trust.json'), 'utf8')).toContain(project)
    await t.engine.shutdown()
  })
})
