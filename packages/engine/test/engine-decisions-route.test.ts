/**
 * The route seam (spec 000 "Decision seams": route — turn start and subagent launch): effort or
 * model within what the task allows, only upward, for one turn or one launch. Mocks only at the
 * model boundary: the main model and the decision model are scripted clients, and each request
 * names the model reference it was made for.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EngineEvent, Route } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import type { ModelRequest } from '../src/index.js'
import type { ScriptStep } from '../src/testing.js'
import { type DecisionAnswer, decisionEngine } from './decisions-harness.js'
import { buggyProject, cleanupTempDirs } from './engine-harness.js'

cleanupTempDirs()

const FAST = 'anthropic/claude-haiku-4-5'
const MAIN = 'anthropic/claude-sonnet-4-6'
const OPUS = 'anthropic/claude-opus-4-6'

function firstText(request: ModelRequest): string {
  const block = request.messages[0]?.content[0]
  return block?.type === 'text' ? block.text : ''
}

/** The route use's facts, from its decision prompt. */
function routeFacts(request: ModelRequest): { prompt: string; agent?: { type: string } } {
  const text = firstText(request)
  const start = text.indexOf('Facts (JSON):\n\n') + 'Facts (JSON):\n\n'.length
  const end = text.indexOf('\n\nAnswer with one JSON object')
  return JSON.parse(text.slice(start, end)) as { prompt: string; agent?: { type: string } }
}

/** Main agent: delegate when the prompt says so, else answer. Subagent: answer at once. */
function script(request: ModelRequest): ScriptStep {
  const assistants = request.messages.filter((message) => message.role === 'assistant').length
  if (firstText(request).includes('SUBTASK')) return { blocks: [{ type: 'text', text: 'sub done' }] }
  const prompt = firstText(request)
  const agent = /DELEGATE (\S+)(?: (\S+))?/.exec(prompt)
  if (agent && assistants === 0)
    return {
      blocks: [
        {
          type: 'tool_use',
          id: 'a1',
          name: 'Agent',
          input: {
            description: 'look around',
            prompt: 'SUBTASK: list the files',
            subagent_type: agent[1],
            ...(agent[2] !== undefined ? { model: agent[2] } : {}),
          },
        },
      ],
    }
  return { blocks: [{ type: 'text', text: 'done' }] }
}

interface Run {
  events: EngineEvent[]
  requests: ModelRequest[]
  decider: ModelRequest[]
  decisions: string
}

/**
 * Opens a session on `open` with `model.fast` = haiku and `model.name` = sonnet, runs `prompts` one
 * turn after another (`/model X` sends setModel, another `/name args` runs that command), and
 * returns what happened.
 */
/** The decision model's limit where no test waits for it: an answer is never late on a loaded machine. */
const DECISION_CEILING_MS = 30_000

async function run(
  prompts: readonly string[],
  answer: (request: ModelRequest) => DecisionAnswer | undefined,
  options: {
    open?: string
    mode?: 'on' | 'shadow'
    unreachable?: string[]
    model?: Record<string, unknown>
    project?: string
    /** The decision model's limit: a ceiling for a loaded machine unless a test times it out. */
    timeoutMs?: number
  } = {},
): Promise<Run> {
  const t = await decisionEngine(
    script,
    (feature, request) => (feature === 'decisions_route' ? answer(request) : undefined),
    options.unreachable,
  )
  const session = await t.engine.openSession({
    projectRoot: options.project ?? buggyProject(),
    model: options.open ?? FAST,
    mode: 'bypass',
    settings: {
      model: { name: MAIN, fast: FAST, ...options.model },
      experimental: { decisions_route: options.mode ?? 'on' },
      decisions: { model: 'decider/x', timeout_ms: options.timeoutMs ?? DECISION_CEILING_MS },
      context: { repo_map: false },
    },
  })
  for (const prompt of prompts) {
    const command = /^\/(\S+) ?(.*)$/.exec(prompt)
    if (command?.[1] === 'model') session.send({ type: 'setModel', model: command[2]! })
    else if (command) session.send({ type: 'runCommand', name: command[1]!, args: command[2]! })
    else await session.submit(prompt)
    await session.idle()
  }
  session.send({ type: 'runCommand', name: 'decisions', args: '' })
  await session.idle()
  const output = t.events(session, 'commandOutput').at(-1)
  const events = t.events(session)
  await t.engine.shutdown()
  return {
    events,
    requests: [...t.client.requests],
    decider: [...t.decider.requests],
    decisions: output?.type === 'commandOutput' ? output.markdown : '',
  }
}

const routes = (events: readonly EngineEvent[]): Route[] =>
  events.flatMap((event) => (event.type === 'routeChosen' ? [event.route] : []))
const traces = (events: readonly EngineEvent[]) =>
  events.flatMap((event) => (event.type === 'decisionTraced' ? [event.trace] : []))
const models = (requests: readonly ModelRequest[]) => requests.map((request) => request.model)

describe('route seam: the model of a main turn (decisions_route on)', () => {
  it('raises the model for one turn, within the configured fast → main models, and the next turn returns to the configured one', async () => {
    const result = await run(
      ['a hard refactor', 'a small rename'],
      (request) =>
        routeFacts(request).prompt.includes('hard')
          ? { model: MAIN, effort: 'high', reason: 'a cross-module refactor' }
          : { model: null, effort: 'low', reason: 'small' },
      { model: { effort: 'low' } },
    )
    expect(models(result.requests)).toEqual([MAIN, FAST])
    // The effort rose with it, for that turn only (the configured one is low).
    expect(result.requests.map((request) => request.reasoning?.effort)).toEqual(['high', 'low'])
    expect(routes(result.events)).toEqual([
      { model: MAIN, effort: 'high', reason: 'a cross-module refactor' },
    ])
    // The decision model was offered exactly the stronger configured model.
    expect(firstText(result.decider[0]!)).toContain(`one of ["${MAIN}"]`)
    expect(result.decisions).toContain(`model ${MAIN}, effort high: a cross-module refactor`)
  })

  it('never lowers: a turn on the main model is offered no model, and advice naming the fast one is ignored', async () => {
    const result = await run(['anything'], () => ({ model: FAST, effort: 'low', reason: 'cheap' }), {
      open: MAIN,
      model: { effort: 'medium' },
    })
    expect(models(result.requests)).toEqual([MAIN])
    expect(result.requests[0]?.reasoning?.effort).toBe('medium')
    expect(routes(result.events)).toEqual([])
    expect(firstText(result.decider[0]!)).not.toContain('one of [')
  })

  it('ignores advice naming a model that is not configured, or one whose provider cannot be reached', async () => {
    const unknown = await run(['x'], () => ({ model: OPUS, reason: 'strongest' }))
    expect(models(unknown.requests)).toEqual([FAST])
    expect(routes(unknown.events)).toEqual([])
    expect(traces(unknown.events).map((trace) => trace.outcome)).toEqual(['abstain'])
    // The main model without credentials: nothing to offer, so the decision model is not even asked.
    const unreachable = await run(['x'], () => ({ model: MAIN, reason: 'hard' }), { unreachable: [MAIN] })
    expect(models(unreachable.requests)).toEqual([FAST])
    expect(unreachable.decider).toEqual([])
  })

  it('leaves a model the user chose with /model alone (the effort may still rise)', async () => {
    const result = await run(
      [`/model ${FAST}`, 'a hard one'],
      () => ({ model: MAIN, effort: 'max', reason: 'hard' }),
      {
        model: { effort: 'low' },
      },
    )
    expect(models(result.requests)).toEqual([FAST])
    expect(result.requests[0]?.reasoning?.effort).toBe('high')
    expect(routes(result.events)).toEqual([{ effort: 'max', reason: 'hard' }])
    expect(firstText(result.decider[0]!)).not.toContain('one of [')
  })

  it('leaves a prompt command’s own model alone', async () => {
    const project = buggyProject()
    mkdirSync(join(project, '.z-engine', 'commands'), { recursive: true })
    writeFileSync(
      join(project, '.z-engine', 'commands', 'quick.md'),
      `---\ndescription: Quick look\nmodel: ${FAST}\n---\nTake a quick look at $ARGUMENTS\n`,
    )
    const result = await run(['/quick math.js'], () => ({ model: MAIN, reason: 'hard' }), { project })
    expect(models(result.requests)).toEqual([FAST])
    expect(routes(result.events)).toEqual([])
  })

  it('a resumed session continuing on a model other than the settings’ own counts as chosen (fail closed)', async () => {
    const t = await decisionEngine(script, (feature) =>
      feature === 'decisions_route' ? { model: MAIN, reason: 'hard' } : undefined,
    )
    const project = buggyProject()
    const settings = {
      model: { name: MAIN, fast: FAST },
      experimental: { decisions_route: 'on' as const },
      decisions: { model: 'decider/x', timeout_ms: DECISION_CEILING_MS },
      context: { repo_map: false },
    }
    const first = await t.engine.openSession({ projectRoot: project, model: FAST, settings })
    await first.submit('one')
    await first.idle()
    await first.close()
    const resumed = await t.engine.openSession({ projectRoot: project, resume: first.id, settings })
    await resumed.submit('two')
    await resumed.idle()
    await t.engine.shutdown()
    // Opened on the fast model, the first turn was raised; resumed on it, the second was not.
    expect(models(t.client.requests)).toEqual([MAIN, FAST])
    expect(t.decider.requests).toHaveLength(1)
  })

  it('in shadow the advice is traced and dropped: the requests are those of off', async () => {
    const result = await run(['a hard one'], () => ({ model: MAIN, effort: 'max', reason: 'hard' }), {
      mode: 'shadow',
      model: { effort: 'low' },
    })
    expect(models(result.requests)).toEqual([FAST])
    expect(result.requests[0]?.reasoning?.effort).toBe('low')
    expect(routes(result.events)).toEqual([])
    const [trace] = traces(result.events)
    expect(trace).toMatchObject({ seam: 'route', mode: 'shadow', outcome: 'advice' })
    expect(trace?.detail).toContain('(shadow: dropped)')
  })

  it('a failing, silent or garbage answer abstains: behaviour equals off', async () => {
    for (const answer of ['fail', 'hang', { model: 42, effort: 'extreme', reason: 'x' }] as const) {
      // Only the silent model waits for the limit, so only it gets a short one.
      const result = await run(['a hard one'], () => answer, answer === 'hang' ? { timeoutMs: 300 } : {})
      expect(models(result.requests)).toEqual([FAST])
      expect(routes(result.events)).toEqual([])
      expect(traces(result.events).map((trace) => trace.outcome)).toEqual([
        answer === 'fail' ? 'failed' : answer === 'hang' ? 'timeout' : 'abstain',
      ])
    }
  })
})

describe('route seam: subagent launches', () => {
  it('raises a launched agent’s model for its run, announced with its agent id; the main turn keeps its own', async () => {
    const result = await run(['DELEGATE explore'], (request) =>
      routeFacts(request).agent?.type === 'explore' ? { model: MAIN, reason: 'a wide search' } : undefined,
    )
    const sub = result.requests.filter((request) => firstText(request).includes('SUBTASK'))
    const main = result.requests.filter((request) => !firstText(request).includes('SUBTASK'))
    expect(models(sub)).toEqual([MAIN])
    expect(models(main)).toEqual([FAST, FAST])
    const [route] = routes(result.events)
    expect(route).toMatchObject({ model: MAIN, reason: 'a wide search' })
    const agent = result.events.find((event) => event.type === 'agentUpdated')
    expect(route?.agentId).toBe(agent?.type === 'agentUpdated' ? agent.agent.id : 'missing')
  })

  it('an agent whose model is chosen explicitly (a model id or alias) is pinned; inherit follows the caller', async () => {
    const advice = () => ({ model: MAIN, reason: 'hard' })
    const explicit = await run(['DELEGATE general haiku'], advice)
    expect(models(explicit.requests.filter((request) => firstText(request).includes('SUBTASK')))).toEqual([
      'anthropic/claude-haiku-4-5',
    ])
    // The caller (the main turn, opened on the fast model) is not pinned: the main turn and the
    // inheriting agent may each be raised.
    const inherited = await run(['DELEGATE general'], advice)
    expect(models(inherited.requests)).toEqual([MAIN, MAIN, MAIN])
    expect(routes(inherited.events).map((route) => route.agentId !== undefined)).toEqual([false, true])
    // After /model the session is pinned, and so is an agent inheriting its model.
    const pinned = await run([`/model ${FAST}`, 'DELEGATE general'], advice)
    expect(models(pinned.requests)).toEqual([FAST, FAST, FAST])
    expect(routes(pinned.events)).toEqual([])
  })
})
