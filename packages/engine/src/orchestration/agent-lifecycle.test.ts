import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from '../../test/engine-harness.js'
import type { ModelRequest } from '../model/types.js'
import {
  agentInfos,
  agentOf,
  call,
  changes,
  lastToolResult,
  perAgent,
  text,
  until,
  untilIdle,
} from './orchestration.test-util.js'

cleanupTempDirs()

describe('agent lifecycle', () => {
  it('cancels a foreground agent with the turn that started it', async () => {
    const project = buggyProject()
    const script = perAgent({
      main: [
        call('Agent', { description: 'Wait', prompt: 'Sleep.', subagent_type: 'general' }),
        text('unreached'),
      ],
      general: [call('Bash', { command: 'sleep 300', description: 'Sleep' }), text('unreached')],
    })
    const { engine, envelopes, events, waitFor } = await engineWith(script)
    const session = await engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'go' })
    await waitFor(session, 'toolStarted', 2)
    const started = Date.now()
    session.send({ type: 'cancel' })
    await untilIdle(session, envelopes)
    // Not when the command ends (300 s): this bound leaves a loaded machine a minute.
    expect(Date.now() - started).toBeLessThan(60_000)
    expect(agentInfos(events(session)).at(-1)).toMatchObject({ status: 'cancelled' })
    const finished = events(session, 'turnFinished').at(-1)
    expect(finished).toMatchObject({ outcome: { type: 'cancelled' } })
    await session.close()
  })

  it('JobKill cancels a background agent; the job ends killed and the parent is told', async () => {
    const project = buggyProject()
    const afterKill: ModelRequest[] = []
    let jobId = ''
    const script = perAgent({
      main: [
        call('Agent', {
          description: 'Sleeper',
          prompt: 'Sleep.',
          subagent_type: 'general',
          run_in_background: true,
        }),
        (request) => {
          jobId = /as job (\S+)\./.exec(lastToolResult(request).text)?.[1] ?? ''
          return text('waiting')
        },
        (request) => {
          afterKill.push(request)
          return text('It was stopped.')
        },
      ],
      general: [call('Bash', { command: 'sleep 300', description: 'Sleep' }), text('unreached')],
    })
    const { engine, envelopes, events, waitFor } = await engineWith(script)
    const session = await engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, envelopes)
    // The turn ended while the agent keeps running: jobs belong to the session.
    await waitFor(session, 'toolStarted', 2)
    expect(agentInfos(events(session)).at(-1)).toMatchObject({ status: 'running', background: true })
    session.send({ type: 'killJob', jobId })
    await until(() => agentInfos(events(session)).at(-1)?.status === 'cancelled')
    await until(() => events(session).some((e) => e.type === 'jobUpdated' && e.job.status === 'killed'))
    expect(
      changes(events(session).flatMap((event) => (event.type === 'jobUpdated' ? [event.job.status] : []))),
    ).toEqual(['running', 'killed'])
    // The next turn carries the "job finished" reminder.
    session.send({ type: 'submit', text: 'and now?' })
    await untilIdle(session, envelopes, 2)
    expect(JSON.stringify(afterKill[0]!.messages.at(-1))).toContain(`Background job ${jobId}`)
    await session.close()
  })

  it('makes background agents wait for a free slot (agents.max_concurrent)', async () => {
    const project = buggyProject()
    const background = (description: string) => ({
      type: 'tool_use' as const,
      name: 'Agent',
      input: { description, prompt: 'Sleep a little.', subagent_type: 'general', run_in_background: true },
    })
    const script = perAgent({
      main: [{ blocks: [background('first'), background('second')] }, text('started both')],
      general: [call('Bash', { command: 'sleep 0.3', description: 'Sleep' }), text('slept')],
    })
    const harness = await engineWith(script)
    mkdirSync(join(harness.home, 'config'), { recursive: true })
    writeFileSync(join(harness.home, 'config', 'settings.toml'), '[agents]\nmax_concurrent = 1\n')
    const session = await harness.engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'bypass',
    })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, harness.envelopes)
    const infos = () => agentInfos(harness.events(session))
    await until(() => infos().filter((info) => info.status === 'done').length === 2)
    const [first, second] = [...new Set(infos().map((info) => info.id))]
    const at = (id: string | undefined, status: string) =>
      infos().findIndex((info) => info.id === id && info.status === status)
    // The second starts only once the first is done.
    expect(at(second, 'running')).toBeGreaterThan(at(first, 'done'))
    await session.close()
  })

  it('nests a foreground agent under a subagent on its slot, up to the depth limit', async () => {
    const project = buggyProject()
    const script = perAgent({
      main: [
        call('Agent', { description: 'Delegate', prompt: 'Ask explore.', subagent_type: 'general' }),
        text('ok'),
      ],
      general: [
        call('Agent', { description: 'Look', prompt: 'What does add do?', subagent_type: 'explore' }),
        (request) => text(`general heard: ${lastToolResult(request).text.split('\n')[0]}`),
      ],
      explore: [text('add subtracts.')],
    })
    const harness = await engineWith(script)
    // One slot: the nested foreground agent must run on its caller's, or this would deadlock.
    mkdirSync(join(harness.home, 'config'), { recursive: true })
    writeFileSync(join(harness.home, 'config', 'settings.toml'), '[agents]\nmax_concurrent = 1\n')
    const session = await harness.engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'bypass',
    })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, harness.envelopes)
    const last = new Map(agentInfos(harness.events(session)).map((info) => [info.agentType, info]))
    expect(last.get('general')).toMatchObject({
      depth: 1,
      status: 'done',
      result: 'general heard: add subtracts.',
    })
    expect(last.get('explore')).toMatchObject({ depth: 2, status: 'done', parentId: last.get('general')!.id })
    const explore = harness.client.requests.find((request) => agentOf(request) === 'explore')!
    expect(explore.tools.map((tool) => tool.name)).not.toContain('Agent')
    await session.close()
  })

  it('closing the chat stops its background agents', async () => {
    const project = buggyProject()
    const script = perAgent({
      main: [
        call('Agent', {
          description: 'Sleeper',
          prompt: 'Sleep.',
          subagent_type: 'general',
          run_in_background: true,
        }),
        text('started'),
      ],
      general: [call('Bash', { command: 'sleep 300', description: 'Sleep' }), text('unreached')],
    })
    const { engine, envelopes, events, waitFor } = await engineWith(script)
    const session = await engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, envelopes)
    await waitFor(session, 'toolStarted', 2)
    const started = Date.now()
    await session.close()
    // Not when the command ends (300 s): this bound leaves a loaded machine a minute.
    expect(Date.now() - started).toBeLessThan(60_000)
    expect(
      events(session).some((event) => event.type === 'jobUpdated' && event.job.status === 'killed'),
    ).toBe(true)
  })

  it('tells the subagent that started a background agent when it finishes, not the main agent', async () => {
    const project = buggyProject()
    const generalRequests: ModelRequest[] = []
    let jobId = ''
    const script = perAgent({
      main: [
        call('Agent', { description: 'Delegate', prompt: 'Delegate.', subagent_type: 'general' }),
        text('ok'),
      ],
      general: [
        call('Agent', {
          description: 'Look',
          prompt: 'Look.',
          subagent_type: 'explore',
          run_in_background: true,
        }),
        (request) => {
          jobId = /as job (\S+)\./.exec(lastToolResult(request).text)?.[1] ?? ''
          return call('JobOutput', { job_id: jobId, wait_ms: 10_000 })
        },
        (request) => {
          generalRequests.push(request)
          return text('general done')
        },
      ],
      explore: [text('looked')],
    })
    const { engine, client, envelopes } = await engineWith(script)
    const session = await engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, envelopes)
    expect(JSON.stringify(generalRequests[0]!.messages.at(-1))).toContain(`Background job ${jobId}`)
    const mainRequests = client.requests.filter((request) => agentOf(request) === 'main')
    expect(JSON.stringify(mainRequests.at(-1)!.messages)).not.toContain(`Background job ${jobId}`)
    await session.close()
  })

  it('resumes a finished agent with its whole transcript', async () => {
    const project = buggyProject()
    let agentId = ''
    const script = perAgent({
      main: [
        call('Agent', { description: 'Look', prompt: 'What does add do?', subagent_type: 'explore' }),
        (request) => {
          agentId = /agent_id: (\S+)/.exec(lastToolResult(request).text)?.[1] ?? ''
          return call('Agent', {
            description: 'Follow up',
            prompt: 'And which file is it in?',
            subagent_type: 'explore',
            resume: agentId,
          })
        },
        text('done'),
      ],
      explore: [
        call('Read', { file_path: join(project, 'math.js') }),
        text('add subtracts.'),
        text('It is in math.js.'),
      ],
    })
    const { engine, client, envelopes, events } = await engineWith(script)
    const session = await engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, envelopes)
    const explore = client.requests.filter((request) => agentOf(request) === 'explore')
    expect(explore).toHaveLength(3)
    const resumed = explore[2]!.messages
    expect(resumed.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user'])
    expect(JSON.stringify(resumed.at(-1))).toContain('And which file is it in?')
    const last = client.requests.at(-1)!
    expect(lastToolResult(last).text).toMatch(/^It is in math\.js\./)
    // One agent, run twice.
    expect(new Set(agentInfos(events(session)).map((info) => info.id))).toEqual(new Set([agentId]))
    await session.close()
  })

  it('resumes an agent of an earlier run of the chat from its stored transcript', async () => {
    const project = buggyProject()
    let agentId = ''
    const script = perAgent({
      main: [
        call('Agent', { description: 'Look', prompt: 'What does add do?', subagent_type: 'explore' }),
        (request) => {
          agentId = /agent_id: (\S+)/.exec(lastToolResult(request).text)?.[1] ?? ''
          return text('first done')
        },
        () =>
          call('Agent', {
            description: 'More',
            prompt: 'Which file?',
            subagent_type: 'explore',
            resume: agentId,
          }),
        text('second done'),
      ],
      explore: [
        call('Read', { file_path: join(project, 'math.js') }),
        text('add subtracts.'),
        text('In math.js.'),
      ],
    })
    const { engine, client, envelopes } = await engineWith(script)
    const first = await engine.openSession({ projectRoot: project, model: 'scripted:x' })
    first.send({ type: 'submit', text: 'go' })
    await untilIdle(first, envelopes)
    await first.close()

    const second = await engine.openSession({ projectRoot: project, resume: first.id })
    second.send({ type: 'submit', text: 'more' })
    // A resumed chat keeps its id: this is its second finished turn.
    await untilIdle(second, envelopes, 2)
    const explore = client.requests.filter((request) => agentOf(request) === 'explore')
    expect(explore).toHaveLength(3)
    expect(explore[2]!.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ])
    expect(lastToolResult(client.requests.at(-1)!).text).toMatch(/^In math\.js\./)
    await second.close()
  })

  it('SubagentStop hooks (a real script exiting 2) send the agent back to work', async () => {
    const project = buggyProject()
    const hooks = tempDir('ze-hooks-')
    const hook = join(hooks, 'subagent-stop.sh')
    writeFileSync(
      hook,
      `#!/bin/sh\ncat >> ${hooks}/calls.jsonl\necho >> ${hooks}/calls.jsonl\n[ -f ${hooks}/seen ] && exit 0\ntouch ${hooks}/seen\necho 'cite the line' >&2\nexit 2\n`,
    )
    chmodSync(hook, 0o755)
    const home = tempDir('ze-home-')
    mkdirSync(join(home, 'config'), { recursive: true })
    // Hooks run confined (issue 34): the folder the script logs to is opened to writes.
    writeFileSync(
      join(home, 'config', 'settings.toml'),
      `[[hooks.SubagentStop]]\ncommand = "${hook}"\n[shell.sandbox]\nwrite_paths = ["${hooks}"]\n`,
    )
    const results: ModelRequest[] = []
    const script = perAgent({
      main: [
        call('Agent', { description: 'Look', prompt: 'What does add do?', subagent_type: 'explore' }),
        (request) => {
          results.push(request)
          return text('ok')
        },
      ],
      explore: [text('add subtracts.'), text('add subtracts (math.js:2).')],
    })
    const { engine, client, envelopes } = await engineWith(script, home)
    const session = await engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, envelopes)
    const explore = client.requests.filter((request) => agentOf(request) === 'explore')
    expect(JSON.stringify(explore[1]!.messages.at(-1))).toContain('SubagentStop hook feedback: cite the line')
    expect(lastToolResult(results[0]!).text).toMatch(/^add subtracts \(math\.js:2\)\./)
    const stdins = readFileSync(join(hooks, 'calls.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line))
    expect(stdins.map((stdin) => [stdin.hook_event_name, stdin.stop_hook_active])).toEqual([
      ['SubagentStop', false],
      ['SubagentStop', true],
    ])
    await session.close()
  })
})
