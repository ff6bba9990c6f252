import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith } from './engine-harness.js'

cleanupTempDirs()

describe('context wiring (spec 003 "Instruction files", "Glob-scoped rules")', () => {
  it('announces a nested AGENTS.md and a matching glob rule once, on first touch', async () => {
    const project = buggyProject()
    mkdirSync(join(project, 'lib'), { recursive: true })
    writeFileSync(join(project, 'lib', 'AGENTS.md'), 'Files in lib use snake_case.\n')
    writeFileSync(join(project, 'lib', 'util.js'), 'export const x = 1\n')
    mkdirSync(join(project, '.z-engine', 'rules'), { recursive: true })
    writeFileSync(
      join(project, '.z-engine', 'rules', 'js.md'),
      '---\nglobs: ["**/*.js"]\n---\nPrefer const.\n',
    )
    writeFileSync(
      join(project, '.z-engine', 'rules', 'always.md'),
      '---\nalwaysApply: true\n---\nBe brief.\n',
    )
    const read = {
      type: 'tool_use' as const,
      name: 'Read',
      input: { file_path: join(project, 'lib', 'util.js') },
    }
    const t = await engineWith([
      { blocks: [read] },
      { blocks: [read] },
      { blocks: [{ type: 'text', text: 'done' }] },
    ])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'look at lib' })
    await t.waitFor(session, 'turnFinished')
    const [first, second, third] = t.client.requests
    expect(JSON.stringify(first!.system)).toContain('Be brief.')
    const afterFirstRead = JSON.stringify(second!.messages.at(-1))
    expect(afterFirstRead).toContain('Files in lib use snake_case.')
    expect(afterFirstRead).toContain('Prefer const.')
    // Announced once: the second read of the same file brings no repeat.
    const afterSecondRead = JSON.stringify(third!.messages.at(-1))
    expect(afterSecondRead).not.toContain('snake_case')
    expect(afterSecondRead).not.toContain('Prefer const.')
    await t.engine.shutdown()
  })

  it('lists skills in the system prompt and offers the Skill tool that loads one', async () => {
    const project = buggyProject()
    mkdirSync(join(project, '.z-engine', 'skills', 'release'), { recursive: true })
    writeFileSync(
      join(project, '.z-engine', 'skills', 'release', 'SKILL.md'),
      '---\nname: release\ndescription: How to cut a release\n---\nRun the release checklist.\n',
    )
    const t = await engineWith([
      { blocks: [{ type: 'tool_use', name: 'Skill', input: { skill: 'release' } }] },
      { blocks: [{ type: 'text', text: 'ok' }] },
    ])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'release it' })
    await t.waitFor(session, 'turnFinished')
    const [first, second] = t.client.requests
    expect(JSON.stringify(first!.system)).toContain('release: How to cut a release')
    expect(first!.tools.map((tool) => tool.name)).toContain('Skill')
    expect(JSON.stringify(second!.messages.at(-1))).toContain('Run the release checklist.')
    await t.engine.shutdown()
  })

  it('reminds the model of plan mode on every turn while it is on', async () => {
    const project = buggyProject()
    const t = await engineWith([{ blocks: [{ type: 'text', text: 'plan' }] }])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'plan' })
    session.send({ type: 'submit', text: 'plan the fix' })
    await t.waitFor(session, 'turnFinished')
    expect(JSON.stringify(t.client.requests[0]!.messages[0])).toMatch(/plan mode/i)
    await t.engine.shutdown()
  })

  it('tells the model at the next turn which files it read changed outside its tools', async () => {
    const project = buggyProject()
    const t = await engineWith([
      { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } }] },
      { blocks: [{ type: 'text', text: 'read it' }] },
      { blocks: [{ type: 'text', text: 'noted' }] },
      { blocks: [{ type: 'text', text: 'again' }] },
    ])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'read math.js' })
    await session.idle()
    writeFileSync(join(project, 'math.js'), 'export function add(a, b) {\n  return a + b + 0\n}\n')
    session.send({ type: 'submit', text: 'I changed it' })
    await session.idle()
    expect(JSON.stringify(t.client.requests[2]!.messages.at(-1))).toContain(join(project, 'math.js'))
    // Reported once: the next turn does not repeat it.
    session.send({ type: 'submit', text: 'anything else?' })
    await session.idle()
    expect(JSON.stringify(t.client.requests[3]!.messages.at(-1))).not.toContain('changed outside')
    await t.engine.shutdown()
  })

  it('nudges about an unfinished todo list after ten batches without TodoWrite', async () => {
    const project = buggyProject()
    let round = 0
    const t = await engineWith(() => {
      round += 1
      if (round === 1) {
        return {
          blocks: [
            {
              type: 'tool_use',
              name: 'TodoWrite',
              input: { todos: [{ content: 'fix add', status: 'in_progress', activeForm: 'Fixing add' }] },
            },
          ],
        }
      }
      if (round <= 12)
        return {
          blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } }],
        }
      return { blocks: [{ type: 'text', text: 'done' }] }
    })
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'work' })
    await t.waitFor(session, 'turnFinished')
    const nudged = t.client.requests.map((request) =>
      JSON.stringify(request.messages.at(-1)).includes('todo list for a while'),
    )
    expect(nudged.filter(Boolean)).toHaveLength(1)
    expect(nudged.indexOf(true)).toBe(11)
    await t.engine.shutdown()
  })
})
