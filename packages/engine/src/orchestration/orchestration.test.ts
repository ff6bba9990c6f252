import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AgentInfo, EngineEvent, EventEnvelope, Message } from '@z-engine/protocol'
import { sessionPaths } from '@z-engine/store'
import { describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith } from '../../test/engine-harness.js'
import type { Session } from '../index.js'
import type { ModelRequest } from '../model/types.js'
import type { ScriptStep } from '../testing/script.js'
import type { ScriptSource } from '../testing/scripted-client.js'

cleanupTempDirs()

type Step = ScriptStep | ((request: ModelRequest) => ScriptStep)

/** Which agent a request comes from, by its system prompt (each definition's prompt is its base). */
function agentOf(request: ModelRequest): string {
  const base = request.system[0]?.text ?? ''
  if (base.startsWith('You are an exploration subagent')) return 'explore'
  if (base.startsWith('You are a subagent of Z Engine')) return 'general'
  if (base.startsWith('You are a reader')) return 'reader'
  return 'main'
}

/** A script answering each agent from its own list, by how many answers it has given so far. */
function perAgent(steps: Record<string, Step[]>): ScriptSource {
  return (request) => {
    const agent = agentOf(request)
    const round = request.messages.filter((message) => message.role === 'assistant').length
    const step = steps[agent]?.[round]
    if (step === undefined) return { blocks: [{ type: 'text', text: `(${agent} has no step ${round})` }] }
    return typeof step === 'function' ? step(structuredClone(request)) : step
  }
}

const text = (value: string): ScriptStep => ({ blocks: [{ type: 'text', text: value }] })
const call = (name: string, input: Record<string, unknown>): ScriptStep => ({
  blocks: [{ type: 'tool_use', name, input }],
})

/** The text of the last tool result in a request (what the model saw of its last call). */
function lastToolResult(request: ModelRequest): { text: string; isError: boolean } {
  const last = request.messages.at(-1) as Message
  const result = last.content.find((block) => block.type === 'tool_result')
  if (result?.type !== 'tool_result')
    throw new Error(`no tool result in the last message: ${JSON.stringify(request.messages.slice(-2))}`)
  const textOf = result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n')
  return { text: textOf, isError: result.isError === true }
}

async function untilIdle(session: Session, envelopes: EventEnvelope[], turns = 1): Promise<void> {
  for (;;) {
    const finished = envelopes.filter(
      (envelope) =>
        envelope.sessionId === session.id &&
        envelope.agentId === undefined &&
        envelope.event.type === 'turnFinished',
    )
    if (finished.length >= turns) return session.idle()
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

function agentInfos(events: EngineEvent[]): AgentInfo[] {
  return events.flatMap((event) => (event.type === 'agentUpdated' ? [event.agent] : []))
}

/** Consecutive duplicates dropped: progress updates repeat the lifecycle state. */
function changes<T>(values: T[]): T[] {
  return values.filter((value, index) => index === 0 || value !== values[index - 1])
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5))
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim()
}

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
    expect(changes(infos.map((info) => info.status))).toEqual(['running', 'done'])
    expect(done).toMatchObject({
      agentType: 'explore',
      depth: 1,
      background: false,
      worktree: { type: 'none' },
    })
    expect(done.usage.inputTokens).toBeGreaterThan(0)
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

  it('refuses tools outside the definition and removes Agent at the depth limit', async () => {
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
    expect(existsSync(join(project, 'NOTES.md'))).toBe(false)
    session.send({ type: 'resolveApproval', approvalId: asked.request.id, decision: { type: 'allowOnce' } })
    await untilIdle(session, envelopes)
    expect(readFileSync(join(project, 'NOTES.md'), 'utf8')).toBe('notes\n')
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
})

describe('worktree agents', () => {
  const editInWorktree = (project: string): Step[] => [
    (request) => {
      const root = /Working directory: (\S+)/.exec(
        request.system.map((section) => section.text).join('\n'),
      )?.[1]
      return call('Read', { file_path: join(root ?? project, 'math.js') })
    },
    (request) => {
      const root = /Working directory: (\S+)/.exec(
        request.system.map((section) => section.text).join('\n'),
      )?.[1]
      return call('Edit', {
        file_path: join(root ?? project, 'math.js'),
        old_string: 'a - b',
        new_string: 'a + b',
      })
    },
    text('Fixed add in my worktree.'),
  ]

  it('edits in its own worktree, leaves the project untouched, then ApplyAgentChanges merges it', async () => {
    const project = buggyProject()
    const applied: ModelRequest[] = []
    const script = perAgent({
      main: [
        call('Agent', {
          description: 'Fix add',
          prompt: 'Fix add.',
          subagent_type: 'general',
          isolation: 'worktree',
        }),
        (request) => {
          applied.push(request)
          const agentId = /agent_id: (\S+)/.exec(lastToolResult(request).text)?.[1]
          expect(readFileSync(join(project, 'math.js'), 'utf8')).toContain('a - b')
          return call('ApplyAgentChanges', { agent_id: agentId })
        },
        (request) => {
          applied.push(request)
          return text('Applied.')
        },
      ],
      general: editInWorktree(project),
    })
    const { engine, envelopes, events } = await engineWith(script)
    const session = await engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'acceptEdits',
    })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, envelopes)

    const agentResult = lastToolResult(applied[0]!)
    expect(agentResult.text).toMatch(/Its changes are in the worktree .*\.z-engine\/worktrees\/agent_/)
    expect(agentResult.text).toContain('ApplyAgentChanges')
    const applyResult = lastToolResult(applied[1]!)
    expect(applyResult.isError).toBe(false)
    expect(applyResult.text).toContain(join(project, 'math.js'))
    expect(readFileSync(join(project, 'math.js'), 'utf8')).toContain('a + b')
    const states = changes(agentInfos(events(session)).map((info) => info.worktree.type))
    expect(states).toEqual(['active', 'pending', 'applied'])
    // Applied: the worktree and its branch are gone, the user's branch and index untouched.
    expect(git(project, 'branch', '--list', 'zengine/*')).toBe('')
    expect(git(project, 'rev-parse', '--abbrev-ref', 'HEAD')).toMatch(/^(main|master)$/)
    expect(git(project, 'diff', '--cached', '--name-only')).toBe('')
    await session.close()
  })

  it('reports a conflicting change as conflicted and leaves the project untouched; discard removes worktree and branch', async () => {
    const project = buggyProject()
    const script = perAgent({
      main: [
        call('Agent', {
          description: 'Fix add',
          prompt: 'Fix add.',
          subagent_type: 'general',
          isolation: 'worktree',
        }),
        text('The agent has pending changes.'),
      ],
      general: editInWorktree(project),
    })
    const { engine, envelopes, events } = await engineWith(script)
    const session = await engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'acceptEdits',
    })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, envelopes)
    const pending = agentInfos(events(session)).at(-1)!
    expect(pending.worktree).toMatchObject({ type: 'pending', changedFiles: ['math.js'] })
    if (pending.worktree.type !== 'pending') throw new Error('expected pending')
    const worktreePath = pending.worktree.path

    // The user changes the same line meanwhile.
    const mine = 'export function add(a, b) {\n  return b - a\n}\n'
    writeFileSync(join(project, 'math.js'), mine)
    session.send({ type: 'applyAgentChanges', agentId: pending.id })
    await until(() => agentInfos(events(session)).at(-1)!.worktree.type === 'conflicted')
    expect(agentInfos(events(session)).at(-1)!.worktree).toEqual({
      type: 'conflicted',
      conflicts: ['math.js'],
      path: worktreePath,
      branch: `zengine/${pending.id}`,
    })
    expect(readFileSync(join(project, 'math.js'), 'utf8')).toBe(mine)
    expect(
      events(session, 'notice').some((event) => event.type === 'notice' && /conflict/.test(event.message)),
    ).toBe(true)

    session.send({ type: 'discardAgentChanges', agentId: pending.id })
    await until(() => agentInfos(events(session)).at(-1)!.worktree.type === 'discarded')
    expect(agentInfos(events(session)).at(-1)!.worktree).toEqual({ type: 'discarded' })
    expect(existsSync(worktreePath)).toBe(false)
    expect(git(project, 'branch', '--list', 'zengine/*')).toBe('')
    expect(readFileSync(join(project, 'math.js'), 'utf8')).toBe(mine)
    await session.close()
  })

  it('refuses worktree isolation outside a git repository', async () => {
    const project = buggyProject()
    execFileSync('rm', ['-rf', join(project, '.git')])
    const results: ModelRequest[] = []
    const script = perAgent({
      main: [
        call('Agent', {
          description: 'Fix add',
          prompt: 'Fix add.',
          subagent_type: 'general',
          isolation: 'worktree',
        }),
        (request) => {
          results.push(request)
          return text('ok')
        },
      ],
    })
    const { engine, envelopes } = await engineWith(script)
    const session = await engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'acceptEdits',
    })
    session.send({ type: 'submit', text: 'go' })
    await untilIdle(session, envelopes)
    const refused = lastToolResult(results[0]!)
    expect(refused.isError).toBe(true)
    expect(refused.text).toMatch(/not in a git repository/)
    await session.close()
  })
})
