/**
 * Spec 003 "Instruction files": a `# note` (the chat sends `/remember --ask`) or `/remember`
 * appends a bullet and reloads the chat's instructions. As Claude Code's `#`, the note asks where it
 * goes (the project's file, this checkout's, or the user's own); the next request carries it.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EngineEvent } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith } from './engine-harness.js'

cleanupTempDirs()

type Question = Extract<EngineEvent, { type: 'questionAsked' }>

describe('# notes and /remember (spec 003 "A # note or /remember appends a bullet")', () => {
  it('a # note asks where it goes, is saved to the chosen file, never reaches the model as a prompt, and the next request carries it', async () => {
    const project = buggyProject()
    const t = await engineWith((_request, index) => ({
      blocks: [{ type: 'text', text: `Answer ${index}.` }],
    }))
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })

    session.send({ type: 'runCommand', name: 'remember', args: '--ask Always use tabs.' })
    const asked = (await t.waitFor(session, 'questionAsked')) as Question
    const question = asked.question.questions[0]!
    expect(question.question).toBe('Where should this note be saved? "Always use tabs."')
    expect(question.options.map((option) => option.label)).toEqual(['Project', 'Project (local)', 'User'])
    expect(question.options[2]!.description).toContain(join(t.engine.paths.configDir, 'AGENTS.md'))
    session.send({
      type: 'answerQuestion',
      questionId: asked.question.id,
      response: { type: 'answered', answers: [{ question: question.question, selected: ['User'] }] },
    })
    await session.idle()
    const userFile = join(t.engine.paths.configDir, 'AGENTS.md')
    expect(readFileSync(userFile, 'utf8')).toBe('- Always use tabs.\n')
    expect(existsSync(join(project, 'AGENTS.md'))).toBe(false)
    const output = t.events(session, 'commandOutput').at(-1)
    expect(output).toMatchObject({ name: 'remember', markdown: `Noted in ${userFile}.` })
    expect(t.client.requests).toHaveLength(0)

    // Dismissed: nothing is written.
    session.send({ type: 'runCommand', name: 'remember', args: '--ask Never mind.' })
    const second = (await t.waitFor(session, 'questionAsked', 2)) as Question
    session.send({ type: 'answerQuestion', questionId: second.question.id, response: { type: 'dismissed' } })
    await session.idle()
    expect(t.events(session, 'commandOutput').at(-1)).toMatchObject({ markdown: 'Not saved.' })

    // `/remember --local` writes without asking; the next request carries both notes.
    session.send({ type: 'runCommand', name: 'remember', args: '--local Run npm test before committing.' })
    await session.idle()
    expect(readFileSync(join(project, 'AGENTS.local.md'), 'utf8')).toBe('- Run npm test before committing.\n')
    session.send({ type: 'submit', text: 'Hello.' })
    await t.waitFor(session, 'turnFinished')
    const system = JSON.stringify(t.client.requests[0]!.system)
    expect(system).toContain('Always use tabs.')
    expect(system).toContain('Run npm test before committing.')
    expect(system).not.toContain('Never mind.')

    session.send({ type: 'runCommand', name: 'remember', args: '--team x' })
    await session.idle()
    const warning = t.events(session, 'notice').at(-1)
    expect(warning).toMatchObject({ message: expect.stringContaining('unknown option --team') })
    await t.engine.shutdown()
  })
})
