/**
 * The decision layer's safety rules (spec 000 "Decision seams"), held with every feature on and
 * with every feature in shadow, plus the fallback: a failing or silent decision model behaves as off.
 * Mocks only at the model boundary: the main model and the decision model are scripted clients.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EngineEvent, Message } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import type { ModelRequest, Session } from '../src/index.js'
import type { ScriptStep } from '../src/testing.js'
import { allFeatures, type DecisionAnswer, decisionEngine } from './decisions-harness.js'
import { buggyProject, cleanupTempDirs } from './engine-harness.js'

cleanupTempDirs()

// Short enough that the session's redactor (policy's SECRET_RULES) leaves it: only its context betrays it.
const SECRET = 'Tr0ub4dor&3'
// The session opens on the configured fast model, so the route seam has a stronger one to offer.
const FAST = 'anthropic/claude-haiku-4-5'
const MAIN = 'anthropic/claude-sonnet-4-6'

/** The main model: read a config with a credential and the code, fix it, try a denied push, then answer. */
function mainScript(request: ModelRequest, index: number): ScriptStep {
  const steps: ScriptStep[] = [
    {
      blocks: [
        { type: 'tool_use', id: 'tu1', name: 'Read', input: { file_path: 'config.txt' } },
        { type: 'tool_use', id: 'tu2', name: 'Read', input: { file_path: 'math.js' } },
      ],
    },
    {
      blocks: [
        {
          type: 'tool_use',
          id: 'tu3',
          name: 'Edit',
          input: { file_path: 'math.js', old_string: 'return a - b', new_string: 'return a + b' },
        },
        { type: 'tool_use', id: 'tu4', name: 'Bash', input: { command: 'git push origin main' } },
      ],
    },
  ]
  void request
  return steps[index] ?? { blocks: [{ type: 'text', text: 'Fixed: add now adds.' }] }
}

/** Advice every use would give if it could: the most a decision could push at each seam. */
function aggressive(feature: string): DecisionAnswer {
  switch (feature) {
    case 'decisions_turn_brief':
      return { reminders: ['Earlier the user asked for small diffs.'] }
    case 'decisions_screen_request':
      return { flagged: ['c1', 'c2', 'c3'] }
    case 'decisions_review_call':
      return { ask: true, reason: 'looks risky' }
    case 'decisions_call_notes':
      return { notes: ['Check the output twice.'] }
    case 'decisions_stop_review':
      return { continue: true, reminder: 'Run the test before you stop.' }
    case 'decisions_route':
      return { effort: 'max', model: MAIN, reason: 'hard' }
    case 'decisions_completion_claims':
      return { claim: 'Fixed: add now adds.' }
    case 'decisions_check_select':
      return { skip: ['test'] }
    case 'decisions_turn_tone':
      return { tone: 'frustrated' }
    case 'decisions_next_step':
      return { suggestion: 'Run the tests' }
    case 'decisions_attention':
      return { score: 0.9, reason: 'blocks the turn' }
    case 'decisions_task_view':
      return { keep: [] }
    default:
      return {}
  }
}

/** Runs the scripted task; answers every approval "always, in this project" and every question "withhold". */
async function runTask(
  mode: 'off' | 'shadow' | 'on',
  answers: (feature: string) => DecisionAnswer | undefined,
  only?: string,
  timeoutMs?: number,
) {
  const project = buggyProject()
  writeFileSync(join(project, 'config.txt'), `host: db.internal\ndb_pass: "${SECRET}"\n`)
  const t = await decisionEngine(mainScript, answers)
  const session = await t.engine.openSession({
    projectRoot: project,
    model: FAST,
    mode: 'acceptEdits',
    settings: {
      ...allFeatures(mode, timeoutMs),
      model: { name: MAIN, fast: FAST },
      ...(only !== undefined ? { experimental: { [only]: mode } } : {}),
      permissions: { deny: ['Bash(git push:*)'] },
      // The map arrives as a reminder whenever its build ends: timing that differs between runs.
      context: { repo_map: false },
    },
  })
  const done = session.submit('Fix add in math.js')
  await drive(t.events, session)
  await done
  await session.idle()
  const events = t.events(session)
  await t.engine.shutdown()
  const requests = JSON.parse(
    JSON.stringify(t.client.requests).split(project).join('<project>'),
  ) as ModelRequest[]
  return { project, events, requests, decider: t.decider }
}

/** Answers approvals and questions as they appear, until the turn finishes. */
async function drive(events: (session: Session) => EngineEvent[], session: Session): Promise<void> {
  const answered = new Set<string>()
  for (;;) {
    const seen = events(session)
    for (const event of seen) {
      if (event.type === 'approvalRequested' && !answered.has(event.request.id)) {
        answered.add(event.request.id)
        session.send({
          type: 'resolveApproval',
          approvalId: event.request.id,
          // Escalated asks carry no suggestion; the answer still names a rule, which must not persist.
          decision: { type: 'allowProject', rule: 'Read(**)' },
        })
      }
      if (event.type === 'questionAsked' && !answered.has(event.question.id)) {
        answered.add(event.question.id)
        session.send({
          type: 'answerQuestion',
          questionId: event.question.id,
          response: {
            type: 'answered',
            answers: event.question.questions.map((q) => ({
              question: q.question,
              selected: ['Withhold them'],
            })),
          },
        })
      }
    }
    if (seen.some((event) => event.type === 'turnFinished')) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** What the main model was sent, without ids that differ between runs. */
function sent(requests: readonly ModelRequest[]) {
  return requests.map((request) =>
    request.messages.map((message: Message) => ({
      role: message.role,
      content: message.content.map((block) => {
        if (block.type === 'text') return { text: block.text.replace(/<env>[\s\S]*<\/env>/, '') }
        if (block.type === 'tool_result')
          return { result: block.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n') }
        return { type: block.type }
      }),
    })),
  )
}

function outcome(events: readonly EngineEvent[]) {
  const finished = events.find((event) => event.type === 'turnFinished')
  const statuses = events.flatMap((event) =>
    event.type === 'toolFinished' ? [`${event.toolUseId}:${event.status}`] : [],
  )
  return {
    outcome: finished?.type === 'turnFinished' ? finished.outcome : undefined,
    badge: finished?.type === 'turnFinished' ? finished.badge.type : undefined,
    // Concurrent reads may finish in either order.
    statuses: statuses.sort(),
  }
}

const traces = (events: readonly EngineEvent[]) =>
  events.flatMap((event) => (event.type === 'decisionTraced' ? [event.trace] : []))

describe('decision safety rules (tests/decisions_all_on, decisions_shadow, decisions_fallback)', () => {
  it('Decisions only escalate: with every feature on, nothing is allowed, denied, cancelled or badged by a decision', async () => {
    const off = await runTask('off', () => undefined)
    const on = await runTask('on', aggressive)
    // Same work done, same end: the turn is not cancelled and the badge is the engine's own.
    expect(outcome(on.events).outcome).toEqual(outcome(off.events).outcome)
    expect(outcome(on.events).outcome).toEqual({ type: 'done' })
    expect(outcome(on.events).badge).toBe(outcome(off.events).badge)
    expect(outcome(on.events).statuses).toEqual(outcome(off.events).statuses)
    expect(readFileSync(join(on.project, 'math.js'), 'utf8')).toContain('return a + b')
    // The policy's deny stands (no seam can allow); it was never turned into an approval.
    expect(outcome(on.events).statuses).toContain('tu4:denied')
    const approvals = on.events.flatMap((event) =>
      event.type === 'approvalRequested' ? [event.request] : [],
    )
    expect(approvals.map((request) => request.toolUseId).sort()).toEqual(['tu1', 'tu2', 'tu3'])
    // The tool gate only turned Allows into Asks, with no rule to suggest or persist.
    for (const request of approvals) {
      expect(request.suggestion).toBeUndefined()
      expect(request.reason).toContain('the decision service asked for review')
    }
    expect(existsSync(join(on.project, '.z-engine', 'settings.local.toml'))).toBe(false)
    // Live decision events and journaled traces.
    const types = new Set(on.events.map((event) => event.type))
    for (const type of [
      'completionClaimUnchecked',
      'urgencyScored',
      'decisionTraced',
      'routeChosen',
    ] as const)
      expect(types.has(type)).toBe(true)
    // The route raised this turn's model within the configured ones (off runs on the fast model).
    expect(new Set(on.requests.map((request) => request.model))).toEqual(new Set([MAIN]))
    expect(new Set(off.requests.map((request) => request.model))).toEqual(new Set([FAST]))
    expect(traces(on.events).every((trace) => trace.mode === 'on')).toBe(true)
  }, 120_000)

  it('with every feature in shadow, advice is dropped: the model is sent exactly what it is sent with every feature off', async () => {
    const off = await runTask('off', () => undefined)
    const shadow = await runTask('shadow', aggressive)
    expect(sent(shadow.requests)).toEqual(sent(off.requests))
    expect(shadow.requests.map((request) => request.model)).toEqual(
      off.requests.map((request) => request.model),
    )
    expect(outcome(shadow.events)).toEqual(outcome(off.events))
    expect(
      shadow.events.some((event) => event.type === 'approvalRequested' || event.type === 'questionAsked'),
    ).toBe(false)
    const shadowTraces = traces(shadow.events)
    expect(shadowTraces.length).toBeGreaterThan(0)
    expect(shadowTraces.every((trace) => trace.mode === 'shadow')).toBe(true)
    expect(shadow.decider.requests.length).toBeGreaterThan(0)
  }, 120_000)

  it('Any model failure abstains, so behavior equals Off (every feature on, the decision model failing)', async () => {
    const off = await runTask('off', () => undefined)
    const failing = await runTask('on', () => 'fail')
    expect(sent(failing.requests)).toEqual(sent(off.requests))
    expect(failing.requests.map((request) => request.model)).toEqual(
      off.requests.map((request) => request.model),
    )
    expect(outcome(failing.events)).toEqual(outcome(off.events))
    // Uses with nothing to ask about abstain without a call; every other one failed.
    const failed = traces(failing.events)
    expect(failed.some((trace) => trace.outcome === 'failed')).toBe(true)
    expect(failed.every((trace) => trace.outcome === 'failed' || trace.outcome === 'abstain')).toBe(true)
  }, 120_000)

  it('a decision model that never answers times out at the shared deadline and abstains', async () => {
    const off = await runTask('off', () => undefined)
    // Only the silent model waits for the limit, so only it gets a short one.
    const silent = await runTask('on', () => 'hang', undefined, 300)
    expect(sent(silent.requests)).toEqual(sent(off.requests))
    expect(silent.requests.map((request) => request.model)).toEqual(
      off.requests.map((request) => request.model),
    )
    expect(outcome(silent.events)).toEqual(outcome(off.events))
    const timedOut = traces(silent.events)
    expect(timedOut.some((trace) => trace.outcome === 'timeout')).toBe(true)
    expect(timedOut.every((trace) => trace.outcome === 'timeout' || trace.outcome === 'abstain')).toBe(true)
  }, 120_000)
})

describe('before a request (screen_request)', () => {
  it('likely credentials in new tool results ask the user once; withheld values become placeholders in this and every later request', async () => {
    const run = await runTask('on', aggressive, 'decisions_screen_request')
    const questions = run.events.filter((event) => event.type === 'questionAsked')
    expect(questions).toHaveLength(1)
    const json = run.requests.map((request) => JSON.stringify(request.messages))
    expect(json[0]).not.toContain(SECRET)
    // The results of the first batch enter the second request with the placeholder, and stay so.
    for (const later of json.slice(1)) {
      expect(later).not.toContain(SECRET)
      expect(later).toContain('db_pass: \\"[WITHHELD:1]\\"')
    }
    // Prefix stability: each request extends the previous one byte for byte.
    for (let index = 1; index < run.requests.length; index++) {
      const before = run.requests[index - 1]!.messages
      const after = run.requests[index]!.messages
      expect(JSON.stringify(after.slice(0, before.length))).toBe(JSON.stringify(before))
    }
    // The journal holds the placeholder too, so a resumed session sends the same.
    expect(outcome(run.events).outcome).toEqual({ type: 'done' })
  }, 120_000)
})
