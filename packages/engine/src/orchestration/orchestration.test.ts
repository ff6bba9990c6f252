import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { sessionPaths } from '@z-engine/store'
import { describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith } from '../../test/engine-harness.js'
import { coreOf } from '../api/engine.js'
import type { ModelRequest } from '../model/types.js'
import {
  agentInfos,
  agentOf,
  call,
  changes,
  lastToolResult,
  perAgent,
  text,
  untilIdle,
} from './orchestration.test-util.js'

cleanupTempDirs()

describe('subagents (real engine, real tools, scripted model)', () => {
  it('runs a foreground explore agent whose final message is the Agent result, journaled in agents/<id>.jsonl', async () => {
    const project = buggyProject()
    const requests: ModelRequest[] = []
    const script = perAgent({
      main: [
        call('Agent', { description: 'Find add', prompt: 'What does add do?', subagent_type: 'explore' }),
        (request) => {
          requests.push(request)
          return text('Done.')
        },
      ],
      explore: [
        call('Read', { file_path: join(project, 'math.js') }),
        text('add subtracts: it returns a - b.'),
      ],
    })
    const { engine, client, envelopes, events, home } = await engineWith(script)
    const session = await engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'Look at add.' })
    await untilIdle(session, envelopes)

    const result = lastToolResult(requests[0]!)
    expect(result.isError).toBe(false)
    expect(result.text).toMatch(/^add subtracts: it returns a - b\./)
    expect(result.text).toMatch(/agent_id: agent_/)
    // The explore agent saw the file and was offered only its definition's tools (no user-facing ones).
    const exploreRequests = client.requests.filter((request) => agentOf(request) === 'explore')
    expect(JSON.stringify(exploreRequests[1]!.messages.at(-1))).toContain('return a - b')
    const offered = exploreRequests[0]!.tools.map((tool) => tool.name)
    expect(offered).toContain('Read')
    expect(offered).not.toContain('Write')
    expect(offered).not.toContain('AskUserQuestion')
    expect(offered).not.toContain('Agent')

    const infos = agentInfos(events(session))
    const done = infos.at(-1)!
    expect(changes(infos.map((info) => info.status))).toEqual(['pending', 'running', 'done'])
    expect(done).toMatchObject({
      agentType: 'explore',
      depth: 1,
      background: false,
      worktree: { type: 'none' },
    })
    expect(done.usage.inputTokens).toBeGreaterThan(0)
    // The turn's usage is what the session spent during it: the subagent's rounds included.
    const finished = envelopes
      .map((envelope) => envelope.event)
      .find((event) => event.type === 'turnFinished')
    if (finished?.type !== 'turnFinished') throw new Error('no turnFinished')
    const ownRounds = client.requests.filter((request) => agentOf(request) === 'main').length
    expect(client.requests.length).toBeGreaterThan(ownRounds)
    expect(finished.usage.inputTokens).toBeGreaterThan(done.usage.inputTokens)
    // One turn so far: it spent everything the session spent.
    expect(finished.usage).toEqual(coreOf(session).state.usage)
    // Its transcript is in its own file, not in the main log.
    const stored = await engine.store.replayAgent(session.id, done.id)
    if (!stored.ok) throw new Error(stored.error.message)
    const transcript = stored.value.snapshot.workingSet
    expect(transcript.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(JSON.stringify(transcript[0])).toContain('What does add do?')
    expect(existsSync(join(sessionPaths(join(home, 'data'), session.id).agentsDir, `${done.id}.jsonl`))).toBe(
      true,
    )
    const mainLog = readFileSync(sessionPaths(join(home, 'data'), session.id).log, 'utf8')
    // Only its result reaches the main log (as the Agent result), never its own calls.
    expect(mainLog).not.toContain('"name":"Read"')
    expect(mainLog).toContain('"agentUpdated"')
    await session.close()
  })

  it('refuses tools outside the definition, removes Agent at the depth limit, and max_depth 0 turns subagents off', async () => {
    const project = buggyProject()
    mkdirSync(join(project, '.z-engine', 'agents'), { recursive: true })
    writeFileSync(
      join(project, '.z-engine', 'agents', 'reader.md'),
      '---\nname: reader\ndescription: Reads files.\ntools: Read, Gl*\n---\nYou are a reader.\n',
    )
    const script = perAgent({
      main: [
        call('Agent', { description: 'Read it', prompt: 'Run the tests.', subagent_type: 'reader' }),
        text('ok'),
      ],
      reader: [call('Bash', { command: 'node test.js' }), text('I cannot run commands.')],
      general: [text('nothing to do')],
    })
    const { engine, client, envelopes } = await engineWith(script)
    const session = await engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, envelopes)
    const reader = client.requests.filter((request) => agentOf(request) === 'reader')
    expect(reader[0]!.tools.map((tool) => tool.name)).toEqual(['Read', 'Glob'])
    const refused = lastToolResult(reader[1]!)
    expect(refused.isError).toBe(true)
    expect(refused.text).toMatch(/no tool named 'Bash'/)
    // The main agent (depth 0) offers Agent; a general subagent at depth 1 still may (max_depth 2).
    expect(client.requests[0]!.tools.map((tool) => tool.name)).toContain('Agent')
    await session.close()

    // With max_depth 1 a subagent gets no Agent tool.
    const shallow = await engineWith(
      perAgent({
        main: [
          call('Agent', { description: 'Nest', prompt: 'Try nesting.', subagent_type: 'general' }),
          text('ok'),
        ],
        general: [text('no nesting here')],
      }),
    )
    const settingsDir = join(shallow.home, 'config')
    mkdirSync(settingsDir, { recursive: true })
    writeFileSync(join(settingsDir, 'settings.toml'), '[agents]\nmax_depth = 1\n')
    const nested = await shallow.engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'bypass',
    })
    nested.send({ type: 'submit', text: 'go' })
    await untilIdle(nested, shallow.envelopes)
    const general = shallow.client.requests.filter((request) => agentOf(request) === 'general')
    expect(general[0]!.tools.map((tool) => tool.name)).not.toContain('Agent')
    expect(shallow.client.requests[0]!.tools.map((tool) => tool.name)).toContain('Agent')
    await nested.close()

    // max_depth 0 turns subagents off: the main agent is offered neither Agent nor ApplyAgentChanges.
    const off = await engineWith(perAgent({ main: [text('alone')] }))
    mkdirSync(join(off.home, 'config'), { recursive: true })
    writeFileSync(join(off.home, 'config', 'settings.toml'), '[agents]\nmax_depth = 0\n')
    const alone = await off.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    alone.send({ type: 'submit', text: 'go' })
    await untilIdle(alone, off.envelopes)
    const offered = off.client.requests[0]!.tools.map((tool) => tool.name)
    expect(offered).not.toContain('Agent')
    expect(offered).not.toContain('ApplyAgentChanges')
    await alone.close()
  })

  it("runs in its definition's mode, except that a chat in bypass overrides it", async () => {
    const project = buggyProject()
    mkdirSync(join(project, '.z-engine', 'agents'), { recursive: true })
    writeFileSync(
      join(project, '.z-engine', 'agents', 'writer.md'),
      '---\nname: writer\ndescription: Writes.\ntools: Write\npermissionMode: plan\n---\nYou are a reader who writes.\n',
    )
    const results: ModelRequest[] = []
    const script = perAgent({
      main: [
        call('Agent', { description: 'Write', prompt: 'Write out.txt.', subagent_type: 'writer' }),
        text('ok'),
      ],
      reader: [
        call('Write', { file_path: join(project, 'out.txt'), content: 'x\n' }),
        (request) => {
          results.push(request)
          return text('done')
        },
      ],
    })
    // In an acceptEdits chat the writer still runs in plan mode: its write is refused.
    const planned = await engineWith(script)
    const first = await planned.engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'acceptEdits',
    })
    first.send({ type: 'submit', text: 'go' })
    await untilIdle(first, planned.envelopes)
    expect(lastToolResult(results[0]!).isError).toBe(true)
    expect(existsSync(join(project, 'out.txt'))).toBe(false)
    await first.close()

    // In a bypass chat every agent bypasses too.
    const bypassed = await engineWith(script)
    const second = await bypassed.engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'bypass',
    })
    second.send({ type: 'submit', text: 'go' })
    await untilIdle(second, bypassed.envelopes)
    expect(lastToolResult(results[1]!).isError).toBe(false)
    expect(readFileSync(join(project, 'out.txt'), 'utf8')).toBe('x\n')
    await second.close()
  })

  it("labels a subagent's approval with its agent id and answers it through resolveApproval", async () => {
    const project = buggyProject()
    const script = perAgent({
      main: [
        call('Agent', { description: 'Write notes', prompt: 'Write NOTES.md.', subagent_type: 'general' }),
        text('ok'),
      ],
      general: [
        call('Write', { file_path: join(project, 'NOTES.md'), content: 'notes\n' }),
        text('Wrote NOTES.md.'),
      ],
    })
    const { engine, envelopes, waitFor, events } = await engineWith(script)
    const session = await engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'default' })
    session.send({ type: 'submit', text: 'go' })
    const asked = await waitFor(session, 'approvalRequested')
    if (asked.type !== 'approvalRequested') throw new Error('unexpected event')
    const agentId = agentInfos(events(session))[0]!.id
    expect(asked.request.agentId).toBe(agentId)
    expect(agentInfos(events(session)).at(-1)).toMatchObject({ id: agentId, status: 'waiting' })
    expect(existsSync(join(project, 'NOTES.md'))).toBe(false)
    session.send({ type: 'resolveApproval', approvalId: asked.request.id, decision: { type: 'allowOnce' } })
    await untilIdle(session, envelopes)
    expect(readFileSync(join(project, 'NOTES.md'), 'utf8')).toBe('notes\n')
    expect(changes(agentInfos(events(session)).map((info) => info.status))).toEqual([
      'pending',
      'running',
      'waiting',
      'running',
      'done',
    ])
    const scoped = envelopes.find((envelope) => envelope.event.type === 'approvalRequested')
    expect(scoped?.agentId).toBe(agentId)
    await session.close()
  })

  it('runs a background agent as a job: a job id at once, JobOutput shows its result, the parent gets a reminder', async () => {
    const project = buggyProject()
    let jobId = ''
    const mainRequests: ModelRequest[] = []
    const script = perAgent({
      main: [
        call('Agent', {
          description: 'Explore',
          prompt: 'Summarize math.js.',
          subagent_type: 'explore',
          run_in_background: true,
        }),
        (request) => {
          mainRequests.push(request)
          jobId = /as job (\S+)\./.exec(lastToolResult(request).text)?.[1] ?? ''
          return call('JobOutput', { job_id: jobId, wait_ms: 10_000 })
        },
        (request) => {
          mainRequests.push(request)
          return text('Noted.')
        },
      ],
      explore: [call('Read', { file_path: join(project, 'math.js') }), text('math.js exports add.')],
    })
    const { engine, envelopes, events } = await engineWith(script)
    const session = await engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, envelopes)
    expect(lastToolResult(mainRequests[0]!).text).toMatch(
      /Started agent agent_\S+ in the background as job job_/,
    )
    const output = lastToolResult(mainRequests[1]!)
    expect(output.text).toContain('math.js exports add.')
    // The reminder rides on the next user message of the parent.
    expect(JSON.stringify(mainRequests[1]!.messages.at(-1))).toContain(`Background job ${jobId}`)
    const jobs = events(session).flatMap((event) => (event.type === 'jobUpdated' ? [event.job] : []))
    expect(jobs.map((job) => job.status)).toEqual(['running', 'exited'])
    expect(jobs[0]).toMatchObject({ kind: 'agent', id: jobId })
    expect(agentInfos(events(session)).at(-1)).toMatchObject({ status: 'done', background: true })
    await session.close()
  })

  it('falls back to the caller model, with a warning, when a role names an unusable model', async () => {
    const project = buggyProject()
    const script = perAgent({
      main: [call('Agent', { description: 'Look', prompt: 'Look.', subagent_type: 'explore' }), text('ok')],
      explore: [text('looked')],
    })
    const harness = await engineWith(script)
    mkdirSync(join(harness.home, 'config'), { recursive: true })
    writeFileSync(join(harness.home, 'config', 'settings.toml'), '[model]\nfast = "nope/x"\n')
    const session = await harness.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, harness.envelopes)
    expect(agentInfos(harness.events(session)).at(-1)).toMatchObject({ status: 'done', result: 'looked' })
    const warned = harness
      .events(session, 'notice')
      .map((event) => (event.type === 'notice' ? event.message : ''))
    expect(warned.some((message) => /fast model nope\/x is unavailable/.test(message))).toBe(true)
    await session.close()
  })

  it('announces a nested AGENTS.md to a subagent on its own first touch', async () => {
    const project = buggyProject()
    mkdirSync(join(project, 'lib'), { recursive: true })
    writeFileSync(join(project, 'lib', 'AGENTS.md'), 'Files in lib use snake_case.\n')
    writeFileSync(join(project, 'lib', 'util.js'), 'export const x = 1\n')
    const script = perAgent({
      main: [
        call('Agent', { description: 'Look', prompt: 'Read lib/util.js.', subagent_type: 'explore' }),
        text('ok'),
      ],
      explore: [call('Read', { file_path: join(project, 'lib', 'util.js') }), text('it exports x')],
    })
    const { engine, client, envelopes } = await engineWith(script)
    const session = await engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, envelopes)
    const explore = client.requests.filter((request) => agentOf(request) === 'explore')
    expect(JSON.stringify(explore[1]!.messages.at(-1))).toContain('Files in lib use snake_case.')
    await session.close()
  })
})
