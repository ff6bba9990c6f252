import type { Action, Decision } from '@z-engine/policy'
import type { ApprovalDecision, ApprovalRequest, EngineEvent } from '@z-engine/protocol'
import type { Tool, ToolCtx, ToolResult } from '@z-engine/tools'
import { describe, expect, it } from 'vitest'
import type { BatchCall, BatchDeps, PreToolUseVerdict } from './batch-types.js'
import { CANCELLED_TEXT, USER_DENIED_TEXT } from './call-state.js'
import { InputValidator } from './input-schema.js'
import { runBatch } from './run-batch.js'

interface Trace {
  log: string[]
  running: number
  maxRunning: number
}

function fakeTool(name: string, readOnly: boolean, trace: Trace, delayMs = 20): Tool {
  return {
    name,
    description: () => name,
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    isReadOnly: () => readOnly,
    isConcurrencySafe: () => readOnly,
    action: (input): Action =>
      readOnly
        ? { type: 'read', paths: [String(input.path)] }
        : { type: 'write', paths: [String(input.path)] },
    title: (input) => `${name} ${String(input.path)}`,
    preview: async () => undefined,
    call: async (input, _ctx, signal): Promise<ToolResult> => {
      trace.running += 1
      trace.maxRunning = Math.max(trace.maxRunning, trace.running)
      trace.log.push(`start ${name} ${String(input.path)}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delayMs)
        signal.addEventListener('abort', () => {
          clearTimeout(timer)
          resolve()
        })
      })
      trace.running -= 1
      trace.log.push(`end ${name} ${String(input.path)}`)
      return {
        ok: true,
        output: {
          content: [{ type: 'text', text: `${name}:${String(input.path)}` }],
          ...(readOnly ? {} : { changedFiles: [String(input.path)] }),
        },
      }
    },
  }
}

interface Harness {
  deps: BatchDeps
  events: EngineEvent[]
  requested: ApprovalRequest[][]
  granted: Array<{ rule: string; scope: string }>
  trace: Trace
}

function harness(
  options: {
    decide?: (toolName: string, action: Action) => Decision
    answer?: (requests: ApprovalRequest[]) => Promise<Map<string, ApprovalDecision>>
    hook?: (toolName: string, input: Record<string, unknown>) => PreToolUseVerdict
    delayMs?: number
  } = {},
): Harness {
  const trace: Trace = { log: [], running: 0, maxRunning: 0 }
  const events: EngineEvent[] = []
  const requested: ApprovalRequest[][] = []
  const granted: Array<{ rule: string; scope: string }> = []
  const validator = new InputValidator()
  let counter = 0
  const tools = new Map<string, Tool>([
    ['Read', fakeTool('Read', true, trace, options.delayMs)],
    ['Edit', fakeTool('Edit', false, trace, options.delayMs)],
  ])
  const deps: BatchDeps = {
    tools,
    actionCtx: () => ({ projectRoot: '/p', cwd: '/p', home: '/h' }),
    toolCtx: (toolUseId) => ({ toolUseId }) as unknown as ToolCtx,
    validate: (name, schema, input) => validator.check(name, schema, input),
    preToolUse: async (name, input) => options.hook?.(name, input) ?? {},
    decide: options.decide ?? (() => ({ decision: 'allow', reason: 'allowed' })),
    requestApprovals: async (requests) => {
      requested.push(requests)
      for (const request of requests) events.push({ type: 'approvalRequested', request })
      return options.answer ? options.answer(requests) : new Map()
    },
    grantRule: async (rule, scope) => {
      granted.push({ rule, scope })
    },
    postToolUse: async () => ({}),
    emit: async (event) => {
      events.push(event)
    },
    maxConcurrency: 10,
    newId: (prefix) => `${prefix}${++counter}`,
  }
  return { deps, events, requested, granted, trace }
}

const call = (id: string, name: string, input: Record<string, unknown>): BatchCall => ({
  block: { type: 'tool_use', id, name, input },
})

const texts = (outcome: Awaited<ReturnType<typeof runBatch>>) =>
  outcome.results.map((result) =>
    result.content.map((block) => (block.type === 'text' ? block.text : '')).join(''),
  )

describe('runBatch (spec 000 "Tool batch")', () => {
  it('runs 3 reads together, the edit alone, then 2 reads together, results in call order', async () => {
    const h = harness()
    const calls = [
      call('1', 'Read', { path: 'a' }),
      call('2', 'Read', { path: 'b' }),
      call('3', 'Read', { path: 'c' }),
      call('4', 'Edit', { path: 'd' }),
      call('5', 'Read', { path: 'e' }),
      call('6', 'Read', { path: 'f' }),
    ]
    const outcome = await runBatch(calls, h.deps, new AbortController().signal)
    expect(texts(outcome)).toEqual(['Read:a', 'Read:b', 'Read:c', 'Edit:d', 'Read:e', 'Read:f'])
    expect(outcome.results.map((result) => result.toolUseId)).toEqual(['1', '2', '3', '4', '5', '6'])
    expect(h.trace.maxRunning).toBe(3)
    const log = h.trace.log
    // The edit starts only after all three reads ended, and the last reads start after it ended.
    expect(log.indexOf('start Edit d')).toBeGreaterThan(log.indexOf('end Read c'))
    expect(log.indexOf('start Edit d')).toBeGreaterThan(log.indexOf('end Read a'))
    expect(log.indexOf('start Read e')).toBeGreaterThan(log.indexOf('end Edit d'))
    expect(outcome.mutated).toBe(true)
    expect(outcome.changedFiles).toEqual(['d'])
  })

  it('requests two asks together and accepts answers in reverse order', async () => {
    const answerOrder: string[] = []
    const h = harness({
      decide: (name) =>
        name === 'Edit'
          ? {
              decision: 'ask',
              reason: 'edits need approval',
              suggestion: { rule: 'Edit(src/**)', scope: 'project' },
            }
          : { decision: 'allow', reason: 'read-only' },
      answer: async (requests) => {
        const answers = new Map<string, ApprovalDecision>()
        for (const request of [...requests].reverse()) {
          answerOrder.push(request.toolUseId)
          answers.set(
            request.id,
            request.toolUseId === 'x'
              ? { type: 'allowSession', rule: 'Edit(src/**)' }
              : { type: 'allowOnce' },
          )
        }
        return answers
      },
    })
    const outcome = await runBatch(
      [
        call('x', 'Edit', { path: 'one' }),
        call('r', 'Read', { path: 'r' }),
        call('y', 'Edit', { path: 'two' }),
      ],
      h.deps,
      new AbortController().signal,
    )
    expect(h.requested).toHaveLength(1)
    expect(h.requested[0]!.map((request) => request.toolUseId)).toEqual(['x', 'y'])
    expect(new Set(h.requested[0]!.map((request) => request.batchId)).size).toBe(1)
    expect(h.requested[0]![0]!.suggestion).toEqual({ rule: 'Edit(src/**)', scope: 'project' })
    expect(answerOrder).toEqual(['y', 'x'])
    expect(texts(outcome)).toEqual(['Edit:one', 'Read:r', 'Edit:two'])
    expect(h.granted).toEqual([{ rule: 'Edit(src/**)', scope: 'session' }])
  })

  it('returns the user denial with feedback and runs nothing for that call', async () => {
    const h = harness({
      decide: () => ({ decision: 'ask', reason: 'r' }),
      answer: async (requests) =>
        new Map([[requests[0]!.id, { type: 'deny', feedback: 'use the other file' }]]),
    })
    const outcome = await runBatch([call('1', 'Edit', { path: 'a' })], h.deps, new AbortController().signal)
    expect(texts(outcome)).toEqual([`${USER_DENIED_TEXT} Feedback from the user: use the other file`])
    expect(outcome.statuses).toEqual(['denied'])
    expect(outcome.results[0]!.isError).toBe(true)
    expect(h.trace.log).toEqual([])
    expect(h.events.some((event) => event.type === 'toolFinished' && event.status === 'denied')).toBe(true)
  })

  it('lets a PreToolUse hook rewrite the input', async () => {
    const h = harness({ hook: (_name, input) => ({ updatedInput: { ...input, path: 'rewritten' } }) })
    const outcome = await runBatch(
      [call('1', 'Read', { path: 'original' })],
      h.deps,
      new AbortController().signal,
    )
    expect(texts(outcome)).toEqual(['Read:rewritten'])
  })

  it('keeps a policy deny even when a hook forces allow', async () => {
    const h = harness({
      decide: () => ({ decision: 'deny', reason: 'matches deny rule Read(./.env)', rule: 'Read(./.env)' }),
      hook: () => ({ permission: { decision: 'allow' } }),
    })
    const outcome = await runBatch(
      [call('1', 'Read', { path: '.env' })],
      h.deps,
      new AbortController().signal,
    )
    expect(texts(outcome)[0]).toContain('Permission denied: matches deny rule')
    expect(h.trace.log).toEqual([])
  })

  it('turns an unknown tool, malformed JSON and invalid input into error results', async () => {
    const h = harness()
    const outcome = await runBatch(
      [
        call('1', 'Nope', {}),
        {
          block: { type: 'tool_use', id: '2', name: 'Read', input: {} },
          parseError: 'Unexpected end of JSON input',
        },
        call('3', 'Read', { path: 5 }),
        call('4', 'Read', { path: 'ok' }),
      ],
      h.deps,
      new AbortController().signal,
    )
    const [unknown, malformed, invalid, ok] = texts(outcome)
    expect(unknown).toContain("there is no tool named 'Nope'")
    expect(malformed).toContain('not a valid JSON object')
    expect(invalid).toContain('path must be string')
    expect(ok).toBe('Read:ok')
    expect(outcome.statuses).toEqual(['error', 'error', 'error', 'ok'])
  })

  it('answers every call with "cancelled by user" when cancelled mid-tool', async () => {
    const h = harness({ delayMs: 10_000 })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 30)
    const outcome = await runBatch(
      [call('1', 'Edit', { path: 'a' }), call('2', 'Edit', { path: 'b' }), call('3', 'Read', { path: 'c' })],
      h.deps,
      controller.signal,
    )
    expect(texts(outcome)).toEqual([CANCELLED_TEXT, CANCELLED_TEXT, CANCELLED_TEXT])
    expect(outcome.statuses).toEqual(['cancelled', 'cancelled', 'cancelled'])
    expect(h.trace.log).toEqual(['start Edit a', 'end Edit a'])
  })

  it('cancels calls still waiting for approval', async () => {
    const controller = new AbortController()
    const h = harness({
      decide: () => ({ decision: 'ask', reason: 'r' }),
      answer: async () => {
        controller.abort()
        return new Map()
      },
    })
    const outcome = await runBatch([call('1', 'Edit', { path: 'a' })], h.deps, controller.signal)
    expect(texts(outcome)).toEqual([CANCELLED_TEXT])
  })
})
