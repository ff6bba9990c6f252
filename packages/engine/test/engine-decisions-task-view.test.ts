/**
 * Task views (decisions_task_view, spec 000 "Decision seams" and the store's TaskView records): a
 * long history is reduced at a turn start to what the new task needs plus an index, journaled first,
 * rebuilt by replay, and brought back whole by includeFullHistory. Shadow and any failure leave the
 * requests as with the feature off. Mocks only at the model boundary (scripted main and decision models).
 */
import type { EngineEvent, Message, TaskView } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import type { ModelRequest } from '../src/index.js'
import type { ScriptStep } from '../src/testing.js'
import { type DecisionAnswer, decisionEngine } from './decisions-harness.js'
import { buggyProject, cleanupTempDirs, engineWith } from './engine-harness.js'

cleanupTempDirs()

// About 4,500 estimated tokens each: four earlier tasks pass the 12,000-token threshold.
const PADDING = ' lorem ipsum'.repeat(1_500)
const TASKS = ['Task A', 'Task B', 'Task C', 'Task D', 'Task E']

const textOf = (message: Message | undefined) =>
  (message?.content ?? []).flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n')

/** The main model: tasks A and E read a file first (a tool call and its result), the others answer. */
function mainScript(request: ModelRequest, index: number): ScriptStep {
  const last = request.messages.at(-1)
  if (last?.content.some((block) => block.type === 'tool_result'))
    return { blocks: [{ type: 'text', text: 'Read it; done.' }] }
  const prompt = textOf(last)
  const task = /^Task \w/.exec(prompt)?.[0] ?? 'Task ?'
  if (task === 'Task A' || task === 'Task E')
    return {
      blocks: [{ type: 'tool_use', id: `tu-${index}`, name: 'Read', input: { file_path: 'math.js' } }],
    }
  return { blocks: [{ type: 'text', text: `Done with ${task}.` }] }
}

/** The exchanges offered to the decision model (parsed from its prompt's facts). */
function offered(request: ModelRequest): { id: string; prompt: string }[] {
  const text = textOf(request.messages[0])
  const facts = text.slice(
    text.indexOf('Facts (JSON):') + 'Facts (JSON):'.length,
    text.lastIndexOf('Answer with'),
  )
  return (JSON.parse(facts) as { earlierExchanges: { id: string; prompt: string }[] }).earlierExchanges
}

/** Keeps the exchange of task B, leaves the others out. */
function keepB(feature: string, request: ModelRequest): DecisionAnswer | undefined {
  if (feature !== 'decisions_task_view') return undefined
  return { keep: offered(request).flatMap((one) => (one.prompt.startsWith('Task B') ? [one.id] : [])) }
}

async function runTasks(
  mode: 'off' | 'shadow' | 'on',
  answers: (feature: string, request: ModelRequest) => DecisionAnswer | undefined,
  // The decision model's limit: a ceiling for a loaded machine unless a test times it out.
  timeoutMs = 30_000,
) {
  const project = buggyProject()
  const t = await decisionEngine(mainScript, answers)
  const session = await t.engine.openSession({
    projectRoot: project,
    model: 'scripted:x',
    mode: 'acceptEdits',
    settings: {
      experimental: { decisions_task_view: mode },
      decisions: { model: 'decider/x', timeout_ms: timeoutMs },
      context: { repo_map: false },
    },
  })
  for (const task of TASKS) await session.submit(`${task}:${PADDING}`)
  await session.idle()
  if (mode === 'shadow') await t.waitFor(session, 'decisionTraced')
  return { ...t, project, session, requests: t.client.requests }
}

/** The messages of each request, without what differs between runs (ids, the environment block). */
function sent(requests: readonly ModelRequest[]) {
  return requests.map((request) =>
    request.messages.map((message) => ({
      role: message.role,
      content: message.content.map((block) =>
        block.type === 'text' ? block.text.replace(/<env>[\s\S]*<\/env>/, '') : block.type,
      ),
    })),
  )
}

const views = (events: readonly EngineEvent[]): TaskView[] =>
  events.flatMap((event) => (event.type === 'taskViewApplied' ? [event.view] : []))

/** Every tool_use in `messages` has its tool_result and every result its call. */
function pairsWhole(messages: readonly Message[]): boolean {
  const calls = new Set<string>()
  const results = new Set<string>()
  for (const message of messages)
    for (const block of message.content) {
      if (block.type === 'tool_use') calls.add(block.id)
      if (block.type === 'tool_result') results.add(block.toolUseId)
    }
  return calls.size === results.size && [...calls].every((id) => results.has(id))
}

describe('task views (decisions_task_view)', () => {
  it('on: a long history is reduced at the turn start to the kept exchanges plus an index, journaled, and each request of the turn extends the previous one', async () => {
    const run = await runTasks('on', keepB)
    const applied = views(run.events(run.session))
    expect(applied).toHaveLength(1)
    expect(applied[0]!.restored).toBe(false)
    // Task E's first request: the index, task B, the two latest exchanges (C, D), then the prompt.
    const first = run.requests.find((request) => textOf(request.messages.at(-1)).startsWith('Task E'))!
    const prompts = first.messages
      .filter((message) => message.role === 'user')
      .map((message) => textOf(message).slice(0, 6))
    expect(prompts).toEqual(['<syste', 'Task B', 'Task C', 'Task D', 'Task E'])
    const index = textOf(first.messages[0])
    expect(index).toContain('[Task view]')
    expect(index).toContain('/full-history')
    expect(index).toContain('"Task A:')
    expect(JSON.stringify(first.messages.slice(1)).includes('Task A:')).toBe(false)
    expect(pairsWhole(first.messages)).toBe(true)
    // Within the turn, the next request extends it byte for byte.
    const next = run.requests[run.requests.indexOf(first) + 1]!
    expect(
      JSON.stringify(next.messages.slice(0, first.messages.length)) === JSON.stringify(first.messages),
    ).toBe(true)
    expect(pairsWhole(next.messages)).toBe(true)
    const traces = run.events(run.session, 'decisionTraced')
    expect(traces.some((event) => event.type === 'decisionTraced' && event.trace.outcome === 'advice')).toBe(
      true,
    )
    // The chat learns it from the persisted event; the decision model saw only shortened exchanges.
    const asked = run.decider.requests.find((request) =>
      textOf(request.messages[0]).startsWith('Decision: decisions_task_view'),
    )!
    expect(textOf(asked.messages[0]).length).toBeLessThan(8_000)
    expect(offered(asked).map((one) => one.prompt.slice(0, 6))).toEqual(['Task A', 'Task B'])
    await run.engine.shutdown()
  }, 120_000)

  it('replay rebuilds the same reduced working set; includeFullHistory brings every message back, journaled', async () => {
    const run = await runTasks('on', keepB)
    const lastOfE = run.requests.at(-1)!
    const sessionId = run.session.id
    await run.engine.shutdown()

    const reply = (text: string): ScriptStep => ({ blocks: [{ type: 'text', text }] })
    const second = await engineWith([reply('Resumed.'), reply('Everything.')], run.home)
    const resumed = await second.engine.openSession({ projectRoot: run.project, resume: sessionId })
    await resumed.submit('Task F: what next?')
    const afterReplay = second.client.requests[0]!.messages
    // The journaled view: the same messages as the last request before the reopen, then the answer and the new prompt.
    expect(
      JSON.stringify(afterReplay.slice(0, lastOfE.messages.length)) === JSON.stringify(lastOfE.messages),
    ).toBe(true)
    expect(afterReplay).toHaveLength(lastOfE.messages.length + 2)
    expect(textOf(afterReplay[0])).toContain('[Task view]')
    expect(JSON.stringify(afterReplay.slice(1)).includes('Task A:')).toBe(false)

    resumed.send({ type: 'includeFullHistory' })
    await resumed.idle()
    const restored = views(second.events(resumed))
    expect(restored).toEqual([expect.objectContaining({ restored: true, keptMessageIds: [] })])
    await resumed.submit('Task G: and now?')
    const full = second.client.requests[1]!.messages
    const prompts = full.filter((message) => message.role === 'user' && textOf(message).startsWith('Task'))
    expect(prompts.map((message) => textOf(message).slice(0, 6))).toEqual([
      'Task A',
      'Task B',
      'Task C',
      'Task D',
      'Task E',
      'Task F',
      'Task G',
    ])
    expect(full.some((message) => textOf(message).includes('[Task view]'))).toBe(false)
    expect(pairsWhole(full)).toBe(true)
    // With no view in use, the command says so.
    resumed.send({ type: 'includeFullHistory' })
    await resumed.idle()
    expect(second.events(resumed, 'notice').at(-1)).toMatchObject({ code: 'full_history' })
    const sessionAgain = resumed.id
    await second.engine.shutdown()

    // The restore is journaled: a second reopen sends the full history too.
    const third = await engineWith([reply('Still everything.')], run.home)
    const again = await third.engine.openSession({ projectRoot: run.project, resume: sessionAgain })
    await again.submit('Task H')
    expect(third.client.requests[0]!.messages.some((message) => textOf(message).startsWith('Task A:'))).toBe(
      true,
    )
    await third.engine.shutdown()
  }, 120_000)

  it('the /full-history command restores the full history', async () => {
    const run = await runTasks('on', keepB)
    run.session.send({ type: 'runCommand', name: 'full-history', args: '' })
    await run.session.idle()
    expect(views(run.events(run.session)).map((view) => view.restored)).toEqual([false, true])
    await run.engine.shutdown()
  }, 120_000)

  it('shadow: the advice is traced and dropped; the model is sent exactly what it is sent with the feature off', async () => {
    const off = await runTasks('off', keepB)
    await off.engine.shutdown()
    const shadow = await runTasks('shadow', keepB)
    expect(sent(shadow.requests)).toEqual(sent(off.requests))
    expect(views(shadow.events(shadow.session))).toEqual([])
    const traces = shadow.events(shadow.session, 'decisionTraced')
    expect(
      traces.some(
        (event) =>
          event.type === 'decisionTraced' &&
          event.trace.feature === 'decisions_task_view' &&
          event.trace.mode === 'shadow' &&
          event.trace.outcome === 'advice',
      ),
    ).toBe(true)
    await shadow.engine.shutdown()
  }, 120_000)

  it('a failing, silent or odd decision abstains: the requests equal those with the feature off', async () => {
    const off = await runTasks('off', keepB)
    await off.engine.shutdown()
    const variants: ((feature: string, request: ModelRequest) => DecisionAnswer | undefined)[] = [
      () => 'fail',
      () => 'hang',
      () => ({ keep: 'everything' }),
      () => ({ keep: ['m_not_offered'] }),
    ]
    for (const answers of variants) {
      // Only the silent model waits for the limit, so only it gets a short one.
      const run = await runTasks('on', answers, answers('', {} as ModelRequest) === 'hang' ? 200 : undefined)
      expect(sent(run.requests)).toEqual(sent(off.requests))
      expect(views(run.events(run.session))).toEqual([])
      const outcomes = run
        .events(run.session, 'decisionTraced')
        .flatMap((event) => (event.type === 'decisionTraced' ? [event.trace.outcome] : []))
      expect(outcomes.some((outcome) => outcome === 'failed' || outcome === 'timeout')).toBe(true)
      await run.engine.shutdown()
    }
  }, 120_000)
})
