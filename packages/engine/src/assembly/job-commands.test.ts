import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EventEnvelope } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith } from '../../test/engine-harness.js'
import {
  call,
  perAgent,
  type Step,
  text,
  until,
  untilIdle,
} from '../orchestration/orchestration.test-util.js'

cleanupTempDirs()

/** The markdown of every `/name` command output so far. */
const outputsOf = (envelopes: EventEnvelope[], name: string): string[] =>
  envelopes
    .map((envelope) => envelope.event)
    .flatMap((event) => (event.type === 'commandOutput' && event.name === name ? [event.markdown] : []))

describe('/jobs', () => {
  it("lists background jobs, shows one's output each time it is asked, and stops it", async () => {
    const project = buggyProject()
    const { engine, envelopes } = await engineWith(
      perAgent({
        main: [
          call('Bash', { command: 'echo ready-marker; sleep 300', run_in_background: true }),
          text('Started it.'),
        ],
      }),
    )
    const session = await engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'start the server' })
    await untilIdle(session, envelopes)

    session.send({ type: 'runCommand', name: 'jobs', args: '' })
    await until(() => outputsOf(envelopes, 'jobs').length === 1)
    const listed = outputsOf(envelopes, 'jobs')[0] ?? ''
    const jobId = /`([^`]+)` shell · running · echo ready-marker; sleep 300/.exec(listed)?.[1]
    expect(jobId, listed).toBeDefined()
    expect(listed).toContain('/jobs stop <id>')

    // The output as far as it is kept, as often as asked: the model's unread output is not consumed.
    for (let shown = 2; shown <= 3; shown++) {
      session.send({ type: 'runCommand', name: 'jobs', args: `output ${jobId}` })
      await until(() => outputsOf(envelopes, 'jobs').length === shown)
      expect(outputsOf(envelopes, 'jobs').at(-1)).toContain('ready-marker')
    }

    session.send({ type: 'runCommand', name: 'jobs', args: 'stop nope' })
    await until(() =>
      envelopes
        .map((envelope) => envelope.event)
        .some((event) => event.type === 'notice' && event.message.startsWith("No job 'nope'")),
    )
    session.send({ type: 'runCommand', name: 'jobs', args: `stop ${jobId}` })
    await until(() => outputsOf(envelopes, 'jobs').length === 4)
    expect(outputsOf(envelopes, 'jobs').at(-1)).toMatch(/^Stopped job `[^`]+` \(killed\)/)
    await until(() =>
      envelopes
        .map((envelope) => envelope.event)
        .some(
          (event) => event.type === 'jobUpdated' && event.job.id === jobId && event.job.status === 'killed',
        ),
    )
    await session.close()
  })
})

describe('/worktrees', () => {
  const rootOf = (request: Parameters<Extract<Step, (...args: never[]) => unknown>>[0], project: string) =>
    /Working directory: (\S+)/.exec(request.system.map((section) => section.text).join('\n'))?.[1] ?? project
  const editInWorktree = (project: string): Step[] => [
    (request) => call('Read', { file_path: join(rootOf(request, project), 'math.js') }),
    (request) =>
      call('Edit', {
        file_path: join(rootOf(request, project), 'math.js'),
        old_string: 'a - b',
        new_string: 'a + b',
      }),
    text('Fixed add in my worktree.'),
  ]

  it("lists a worktree agent's waiting changes, shows their diff, and applies them", async () => {
    const project = buggyProject()
    const { engine, envelopes } = await engineWith(
      perAgent({
        main: [
          call('Agent', {
            description: 'Fix add',
            prompt: 'Fix add.',
            subagent_type: 'general',
            isolation: 'worktree',
          }),
          text('The agent is done.'),
        ],
        general: editInWorktree(project),
      }),
    )
    const session = await engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'acceptEdits',
    })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, envelopes)
    const before = readFileSync(join(project, 'math.js'), 'utf8')
    expect(before).not.toContain('a + b')

    session.send({ type: 'runCommand', name: 'worktrees', args: '' })
    await until(() => outputsOf(envelopes, 'worktrees').length === 1)
    const listed = outputsOf(envelopes, 'worktrees')[0] ?? ''
    const agentId = /`([^`]+)` general: Fix add · pending: 1 file changed/.exec(listed)?.[1]
    expect(agentId, listed).toBeDefined()

    session.send({ type: 'runCommand', name: 'worktrees', args: `diff ${agentId?.slice(0, 10)}` })
    await until(() => outputsOf(envelopes, 'worktrees').length === 2)
    const diff = outputsOf(envelopes, 'worktrees')[1] ?? ''
    expect(diff).toContain('```diff')
    expect(diff).toContain('+  return a + b')
    expect(diff).toContain('a/math.js')

    session.send({ type: 'runCommand', name: 'worktrees', args: `apply ${agentId}` })
    await until(() =>
      envelopes
        .map((envelope) => envelope.event)
        .some(
          (event) =>
            event.type === 'notice' && event.message.startsWith(`Applied agent ${agentId}'s changes`),
        ),
    )
    expect(readFileSync(join(project, 'math.js'), 'utf8')).toContain('return a + b')

    session.send({ type: 'runCommand', name: 'worktrees', args: '' })
    await until(() => outputsOf(envelopes, 'worktrees').length === 3)
    expect(outputsOf(envelopes, 'worktrees')[2]).toBe('No worktree agent has changes waiting.')
    await session.close()
  })
})
