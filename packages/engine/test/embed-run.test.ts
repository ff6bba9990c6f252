/**
 * Issue 16 items 5 and 6: `run()` that never waits forever and returns the turn's result;
 * `session.submit(text)` turn handles; event payloads a host needs (tool output in `toolFinished`,
 * final text in `turnFinished`, `busy` false by then).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EventEnvelope, ToolResultBlock } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { NO_APPROVER_FEEDBACK } from '../src/api/run.js'
import { defineTool, run } from '../src/index.js'
import { ScriptedClient, type ScriptSource } from '../src/testing.js'
import { buggyProject, cleanupTempDirs, engineWith, fixTheBugResponses } from './engine-harness.js'

cleanupTempDirs()

function scripted(script: ScriptSource) {
  const client = new ScriptedClient(script)
  return {
    client,
    clientFactory: {
      createClient: () => ({ ok: true as const, client, provider: 'scripted' as const, model: 'scripted' }),
    },
  }
}

const lastResult = (client: ScriptedClient, request: number): ToolResultBlock | undefined =>
  client.requests[request]?.messages
    .at(-1)
    ?.content.filter((block): block is ToolResultBlock => block.type === 'tool_result')
    .at(-1)

describe('run()', () => {
  it('in default mode with no callbacks denies the ask with a message naming the option, and returns the result', async () => {
    const project = buggyProject()
    const { client, clientFactory } = scripted(fixTheBugResponses(project))
    const result = await run({ prompt: 'fix the failing test', cwd: project, isolated: true, clientFactory })
    expect(result.outcome).toEqual({ type: 'done' })
    expect(result.text).toBe('Fixed: add now adds, and the test passes.')
    expect(result.sessionId).toMatch(/\S/)
    expect(result.usage.outputTokens).toBeGreaterThan(0)
    expect(result.cost.totalUsd).toBeGreaterThanOrEqual(0)
    // The Edit asked, and was denied with the reason and what to pass.
    expect(JSON.stringify(lastResult(client, 2))).toContain('run() was called without onApproval')
    expect(NO_APPROVER_FEEDBACK).toContain('onApproval')
    expect(readFileSync(join(project, 'math.js'), 'utf8')).toContain('a - b')
  })

  it('offers tools given to run() once, with its hooks firing once, and calls them', async () => {
    const project = buggyProject()
    const { client, clientFactory } = scripted([
      { blocks: [{ type: 'tool_use', name: 'weather', input: { city: 'Oslo' } }] },
      { blocks: [{ type: 'text', text: 'Sunny.' }] },
    ])
    const cities: string[] = []
    const hooked: string[] = []
    const weather = defineTool({
      name: 'weather',
      description: 'The weather in a city.',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      readOnly: true,
      execute: (input) => {
        cities.push(String(input.city))
        return `sunny in ${String(input.city)}`
      },
    })
    const result = await run({
      prompt: 'weather?',
      cwd: project,
      isolated: true,
      clientFactory,
      tools: [weather],
      hooks: { PreToolUse: [{ matcher: '^weather$', hook: (input) => void hooked.push(input.toolName) }] },
    })
    expect(result.outcome).toEqual({ type: 'done' })
    expect(cities).toEqual(['Oslo'])
    expect(hooked).toEqual(['weather'])
    expect(client.requests[0]?.tools.filter((tool) => tool.name === 'weather')).toHaveLength(1)
  })

  it('a run that fails throws from iteration as from await', async () => {
    const project = buggyProject()
    const { clientFactory } = scripted([{ blocks: [{ type: 'text', text: 'never' }] }])
    const attempt = () =>
      run({ prompt: 'hi', cwd: project, isolated: true, clientFactory, resume: 'no-such-session' })
    await expect(attempt()).rejects.toThrow(/no-such-session/)
    const events: EventEnvelope[] = []
    const iterate = async () => {
      for await (const envelope of attempt()) events.push(envelope)
    }
    await expect(iterate()).rejects.toThrow(/no-such-session/)
    expect(events).toEqual([])
  })

  it('answers approvals with onApproval and plans with onPlan; iterating yields every event to turnFinished', async () => {
    const project = buggyProject()
    const { clientFactory } = scripted([
      { blocks: [{ type: 'tool_use', name: 'ExitPlanMode', input: { plan: 'Fix add.' } }] },
      ...fixTheBugResponses(project),
    ])
    const approvals: string[] = []
    const events: EventEnvelope[] = []
    const handle = run({
      prompt: 'plan, then fix',
      cwd: project,
      mode: 'plan',
      isolated: true,
      clientFactory,
      onPlan: () => ({ type: 'approve', mode: 'default' }),
      onApproval: (request) => {
        approvals.push(request.toolName)
        return { type: 'allowOnce' }
      },
    })
    for await (const envelope of handle) events.push(envelope)
    const result = await handle
    expect(events.at(-1)?.event.type).toBe('turnFinished')
    expect(events.some((envelope) => envelope.event.type === 'planResolved')).toBe(true)
    expect(approvals).toEqual(['Edit', 'Bash'])
    expect(result.outcome).toEqual({ type: 'done' })
    expect(readFileSync(join(project, 'math.js'), 'utf8')).toContain('a + b')
  })

  it('rejects a plan without onPlan and dismisses a question without onQuestion', async () => {
    const project = buggyProject()
    const { client, clientFactory } = scripted([
      {
        blocks: [
          {
            type: 'tool_use',
            name: 'AskUserQuestion',
            input: {
              questions: [
                {
                  question: 'Which?',
                  header: 'Pick',
                  options: [
                    { label: 'a', description: 'A' },
                    { label: 'b', description: 'B' },
                  ],
                },
              ],
            },
          },
        ],
      },
      { blocks: [{ type: 'tool_use', name: 'ExitPlanMode', input: { plan: 'Fix add.' } }] },
      { blocks: [{ type: 'text', text: 'giving up' }] },
    ])
    const result = await run({ prompt: 'plan', cwd: project, mode: 'plan', isolated: true, clientFactory })
    expect(result.text).toBe('giving up')
    expect(JSON.stringify(lastResult(client, 2))).toContain('run() was called without onPlan')
  })
})

describe('session.submit and event payloads', () => {
  it('streams the turn’s events and resolves to its result; toolFinished carries output, turnFinished the text; busy is false by then', async () => {
    const project = buggyProject()
    const t = await engineWith([
      { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } }] },
      { blocks: [{ type: 'text', text: 'It subtracts.' }] },
      { blocks: [{ type: 'text', text: 'Second answer.' }] },
    ])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    const busyAtFinish: boolean[] = []
    const handle = session.submit('what does add do?')
    const seen: string[] = []
    for await (const { event } of handle) {
      seen.push(event.type)
      if (event.type === 'turnFinished') busyAtFinish.push(session.busy)
    }
    const result = await handle
    // The first prompt titles the session just before its turn starts (the journal's order too).
    expect(seen.slice(0, 2)).toEqual(['titleChanged', 'turnStarted'])
    expect(seen.at(-1)).toBe('turnFinished')
    expect(busyAtFinish).toEqual([false])
    expect(result).toMatchObject({ sessionId: session.id, text: 'It subtracts.', outcome: { type: 'done' } })
    const finished = t.events(session, 'toolFinished')[0]
    expect(finished).toMatchObject({
      type: 'toolFinished',
      status: 'ok',
      output: expect.stringContaining('a - b'),
    })
    expect(t.events(session, 'turnFinished')[0]).toMatchObject({ text: 'It subtracts.' })
    // A second submit right after (no idle wait) starts the next turn.
    const second = await session.submit('and now?')
    expect(second.text).toBe('Second answer.')
    expect(second.turnId).not.toBe(result.turnId)
    await t.engine.shutdown()
  })

  it('a submit during a turn steers it, and its handle follows that turn', async () => {
    const project = buggyProject()
    let release!: () => void
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const t = await engineWith(async (request) => {
      const rounds = request.messages.filter((message) => message.role === 'assistant').length
      if (rounds === 0) {
        await gate
        return {
          blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } }],
        }
      }
      return { blocks: [{ type: 'text', text: `saw: ${JSON.stringify(request.messages.at(-1))}` }] }
    })
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    const first = session.submit('read it')
    await t.waitFor(session, 'turnStarted')
    const steer = session.submit('also check tests')
    release()
    const [a, b] = await Promise.all([first, steer])
    expect(b.turnId).toBe(a.turnId)
    expect(a.text).toContain('also check tests')
    await t.engine.shutdown()
  })

  it('in-process send refuses a malformed command with a notice', async () => {
    const project = buggyProject()
    const t = await engineWith([{ blocks: [{ type: 'text', text: 'hi' }] }])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 42 } as never)
    session.send({ type: 'nonsense' } as never)
    await session.idle()
    const notices = t
      .events(session, 'notice')
      .flatMap((event) =>
        event.type === 'notice' && event.code === 'invalid_command' ? [event.message] : [],
      )
    expect(notices).toHaveLength(2)
    expect(notices[0]).toContain('text')
    expect(t.events(session, 'turnStarted')).toHaveLength(0)
    await t.engine.shutdown()
  })

  it('an injected clientFactory gets the session id and project root, and models the catalog does not know', async () => {
    const project = buggyProject()
    const client = new ScriptedClient([{ blocks: [{ type: 'text', text: 'from my model' }] }])
    const asked: Array<{ ref: string; sessionId?: string; projectRoot?: string }> = []
    const result = await run({
      prompt: 'hi',
      cwd: project,
      isolated: true,
      model: 'my-company-model-v3',
      clientFactory: {
        createClient: (ref, _provider, session) => {
          asked.push({ ref, ...session })
          return { ok: true, client, provider: 'scripted', model: ref }
        },
      },
    })
    expect(result.text).toBe('from my model')
    expect(asked[0]).toEqual({
      ref: 'my-company-model-v3',
      sessionId: result.sessionId,
      projectRoot: project,
    })
  })
})
