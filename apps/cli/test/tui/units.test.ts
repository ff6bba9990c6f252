import type { ApprovalRequest, EngineEvent, EventEnvelope } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { approvalKey, approvalOptions, INITIAL_APPROVAL_UI } from '../../src/tui/approval-panel.js'
import { EMPTY_HISTORY, entryOf, recall, remember } from '../../src/tui/input-history.js'
import { liveTail } from '../../src/tui/live-tail.js'
import { parseInline, parseMarkdown } from '../../src/tui/markdown.js'
import { splitSettled } from '../../src/tui/message-text.js'
import { pickerKey, pickerWindow } from '../../src/tui/picker.js'
import { EMPTY_BUFFER, expandPastes, insert, paste } from '../../src/tui/prompt-buffer.js'
import { reduceEvent } from '../../src/tui/reduce-event.js'
import { CLI_COMMANDS, completions, parseLine } from '../../src/tui/slash-commands.js'
import { nextMode } from '../../src/tui/status-line.js'
import { NO_KEY } from '../../src/tui/use-terminal-input.js'
import { contextPercent, initialChatState, visibleProgress } from '../../src/tui/view-model.js'

const request = (suggestion?: ApprovalRequest['suggestion']): ApprovalRequest => ({
  id: 'a1',
  toolUseId: 't1',
  toolName: 'Bash',
  title: 'Allow Bash to run npm test?',
  reason: 'not read-only',
  ...(suggestion ? { suggestion } : {}),
})

const key = (overrides: Partial<Record<string, boolean>> = {}) =>
  ({ ...NO_KEY, ...overrides }) as Parameters<typeof approvalKey>[3]

let seq = 0
const envelope = (event: EngineEvent, agentId?: string): EventEnvelope => ({
  seq: seq++,
  sessionId: 's1',
  at: new Date(0).toISOString(),
  event,
  ...(agentId ? { agentId } : {}),
})

describe('approval options', () => {
  it('offers session and project rules for a project suggestion', () => {
    const options = approvalOptions(request({ rule: 'Bash(npm test:*)', scope: 'project' }))
    expect(options.map((option) => option.decision)).toEqual([
      { type: 'allowOnce' },
      { type: 'allowSession', rule: 'Bash(npm test:*)' },
      { type: 'allowProject', rule: 'Bash(npm test:*)' },
      { type: 'deny' },
    ])
  })
  it('offers only the session for an outside target and no rule without a suggestion', () => {
    expect(
      approvalOptions(request({ rule: 'Edit(/tmp/x)', scope: 'session' })).map((option) => option.hotkey),
    ).toEqual(['y', 'a', 'n'])
    expect(approvalOptions(request()).map((option) => option.hotkey)).toEqual(['y', 'n'])
  })
  it('asks for feedback after "n" and sends it with the deny', () => {
    const requests = [request()]
    const asked = approvalKey(requests, INITIAL_APPROVAL_UI, 'n', key())
    expect(asked).toMatchObject({ type: 'ui', ui: { feedback: '' } })
    if (asked.type !== 'ui') throw new Error('expected ui')
    const typed = approvalKey(requests, asked.ui, 'run lint instead', key())
    if (typed.type !== 'ui') throw new Error('expected ui')
    expect(approvalKey(requests, typed.ui, '', key({ return: true }))).toMatchObject({
      type: 'resolve',
      approvalId: 'a1',
      decision: { type: 'deny', feedback: 'run lint instead' },
    })
  })
  it('ignores "a" when the card offers no rule', () => {
    expect(approvalKey([request()], INITIAL_APPROVAL_UI, 'a', key())).toEqual({ type: 'unhandled' })
  })
})

describe('markdown', () => {
  it('splits blocks and keeps an unclosed fence open while streaming', () => {
    const blocks = parseMarkdown('# Title\n\n\n- a\n1. b\n```ts\nconst x = 1')
    expect(blocks.map((block) => block.type)).toEqual(['heading', 'blank', 'bullet', 'bullet', 'code'])
    expect(blocks.at(-1)).toEqual({ type: 'code', language: 'ts', lines: ['const x = 1'] })
  })
  it('parses bold, italic and code spans', () => {
    expect(parseInline('a **b** `c` *d*')).toEqual([
      { text: 'a ', style: 'plain' },
      { text: 'b', style: 'bold' },
      { text: ' ', style: 'plain' },
      { text: 'c', style: 'code' },
      { text: ' ', style: 'plain' },
      { text: 'd', style: 'italic' },
    ])
  })
})

describe('slash commands', () => {
  it('tells CLI commands, engine commands and prompts apart', () => {
    expect(parseLine('/help')).toEqual({ type: 'cli', name: 'help', args: '' })
    expect(parseLine('/quit')).toEqual({ type: 'cli', name: 'exit', args: '' })
    expect(parseLine('/compact keep the API notes')).toEqual({
      type: 'engine',
      name: 'compact',
      args: 'keep the API notes',
    })
    expect(parseLine('//etc/hosts is odd')).toEqual({ type: 'prompt', text: '/etc/hosts is odd' })
    // Claude Code's `#`: a memory note, asked where it goes, never a prompt.
    expect(parseLine('# Always use tabs')).toEqual({
      type: 'engine',
      name: 'remember',
      args: '--ask Always use tabs',
    })
    expect(parseLine('## Plan\nfix it')).toEqual({ type: 'prompt', text: '## Plan\nfix it' })
    expect(parseLine('fix it')).toEqual({ type: 'prompt', text: 'fix it' })
  })
  it('completes names only before the arguments start', () => {
    expect(completions('/se', CLI_COMMANDS).map((command) => command.name)).toEqual(['sessions'])
    expect(completions('/sessions x', CLI_COMMANDS)).toEqual([])
    expect(completions('hello', CLI_COMMANDS)).toEqual([])
  })
})

describe('reduceEvent', () => {
  const start = () => initialChatState({ sessionId: 's1', mode: 'default', model: 'm' })

  it('streams a text part live and moves it to the transcript when it ends', () => {
    let state = reduceEvent(start(), envelope({ type: 'textStart', id: 'p1' }))
    state = reduceEvent(state, envelope({ type: 'textDelta', id: 'p1', delta: 'Hel' }))
    state = reduceEvent(state, envelope({ type: 'textDelta', id: 'p1', delta: 'lo' }))
    expect(state.live.parts.get('p1')?.text).toBe('Hello')
    expect(state.finished).toEqual([])
    state = reduceEvent(state, envelope({ type: 'textEnd', id: 'p1' }))
    expect(state.live.parts.size).toBe(0)
    expect(state.finished).toMatchObject([{ kind: 'assistant', text: 'Hello' }])
  })
  it("leaves a subagent's text out but shows its tool cards", () => {
    let state = reduceEvent(start(), envelope({ type: 'textStart', id: 'p9' }, 'agent-1'))
    state = reduceEvent(
      state,
      envelope(
        { type: 'toolStarted', toolUseId: 't1', toolName: 'Read', title: 'Read a.ts', input: {} },
        'agent-1',
      ),
    )
    expect(state.live.parts.size).toBe(0)
    expect(state.live.tools.get('t1')).toMatchObject({ agentId: 'agent-1', status: 'running' })
  })
  it('keeps a tail of tool output, joining lines split across chunks', () => {
    let state = reduceEvent(
      start(),
      envelope({ type: 'toolStarted', toolUseId: 't1', toolName: 'Bash', title: 'Bash', input: {} }),
    )
    for (const text of ['li', 'ne1\nline2\n', 'line3\nline4\nline5\n'])
      state = reduceEvent(
        state,
        envelope({
          type: 'toolProgress',
          toolUseId: 't1',
          progress: { type: 'output', stream: 'stdout', text },
        }),
      )
    const card = state.live.tools.get('t1')
    if (!card) throw new Error('no card')
    expect(visibleProgress(card)).toEqual(['line2', 'line3', 'line4', 'line5'])
  })
  it('shows queued steering until it is delivered, and a denied call that never started', () => {
    let state = reduceEvent(start(), envelope({ type: 'steeringQueued', text: 'also the docs' }))
    expect(state.queued).toEqual(['also the docs'])
    state = reduceEvent(
      state,
      envelope({
        type: 'messageRecorded',
        message: { id: 'm1', role: 'user', content: [{ type: 'text', text: 'also the docs' }] },
      }),
    )
    expect(state.queued).toEqual([])
    state = reduceEvent(
      state,
      envelope({
        type: 'toolFinished',
        toolUseId: 't2',
        toolName: 'Bash',
        status: 'denied',
        durationMs: 0,
        summary: 'no',
      }),
    )
    expect(state.finished.at(-1)).toMatchObject({ kind: 'tool', card: { status: 'denied', summary: 'no' } })
  })
  it('shows a task view and its restore as dividers naming /full-history', () => {
    let state = reduceEvent(
      start(),
      envelope({
        type: 'taskViewApplied',
        view: { id: 'v1', keptMessageIds: ['m1', 'm2'], restored: false },
      }),
    )
    state = reduceEvent(
      state,
      envelope({ type: 'taskViewApplied', view: { id: 'v2', keptMessageIds: [], restored: true } }),
    )
    expect(state.finished).toMatchObject([
      { kind: 'divider', text: expect.stringContaining('kept 2 earlier messages') },
      { kind: 'divider', text: 'Full history restored' },
    ])
    expect(state.finished[0]).toMatchObject({ text: expect.stringContaining('/full-history') })
  })
  it('reads the context meter and cost from usage', () => {
    const zero = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }
    const cost = { inputUsd: 0, outputUsd: 0, cacheReadUsd: 0, cacheWriteUsd: 0, totalUsd: 0.25 }
    const state = reduceEvent(
      start(),
      envelope({
        type: 'usageUpdated',
        usage: zero,
        cost,
        sessionUsage: zero,
        sessionCost: cost,
        contextTokens: 50_000,
        contextWindow: 200_000,
      }),
    )
    expect(contextPercent(state)).toBe(25)
    expect(state.costUsd).toBe(0.25)
  })
  it('shows a routed model or effort as a notice, naming the agent it was for', () => {
    let state = reduceEvent(
      start(),
      envelope({
        type: 'routeChosen',
        route: { model: 'anthropic/claude-sonnet-4-6', effort: 'high', reason: 'a hard refactor' },
      }),
    )
    state = reduceEvent(
      state,
      envelope({ type: 'routeChosen', route: { effort: 'max', agentId: 'agent_1', reason: 'wide' } }),
    )
    expect(state.finished.slice(-2)).toMatchObject([
      {
        kind: 'notice',
        level: 'info',
        text: 'This turn routed to anthropic/claude-sonnet-4-6, high effort: a hard refactor',
      },
      { kind: 'notice', level: 'info', text: 'Agent agent_1 routed to max effort: wide' },
    ])
  })
})

describe('mode cycling', () => {
  it('cycles default → acceptEdits → plan, and into bypass only when allowed', () => {
    expect(nextMode('default', false)).toBe('acceptEdits')
    expect(nextMode('acceptEdits', false)).toBe('plan')
    expect(nextMode('plan', false)).toBe('default')
    expect(nextMode('plan', true)).toBe('bypass')
    expect(nextMode('bypass', true)).toBe('default')
  })
})

describe('settled paragraphs', () => {
  it('settles text before the last paragraph break, never inside a code fence', () => {
    expect(splitSettled('one\n\ntwo')).toEqual(['one', 'two'])
    expect(splitSettled('one\n\ntwo\n\nthr')).toEqual(['one\n\ntwo', 'thr'])
    expect(splitSettled('no break yet')).toEqual(['', 'no break yet'])
    expect(splitSettled('intro\n\n```ts\na\n\nb')).toEqual(['intro', '```ts\na\n\nb'])
    expect(splitSettled('```ts\na\n```\n\nafter')).toEqual(['```ts\na\n```', 'after'])
  })
  it('moves settled paragraphs of a streaming answer to the transcript while the rest streams', () => {
    const start = initialChatState({ sessionId: 's1', mode: 'default', model: 'm' })
    let state = reduceEvent(start, envelope({ type: 'textStart', id: 'p1' }))
    state = reduceEvent(state, envelope({ type: 'textDelta', id: 'p1', delta: 'First paragraph.\n\nSec' }))
    expect(state.finished).toMatchObject([{ kind: 'assistant', text: 'First paragraph.' }])
    expect(state.live.parts.get('p1')?.text).toBe('Sec')
    state = reduceEvent(state, envelope({ type: 'textDelta', id: 'p1', delta: 'ond.' }))
    state = reduceEvent(state, envelope({ type: 'textEnd', id: 'p1' }))
    expect(state.finished.map((entry) => (entry.kind === 'assistant' ? entry.text : ''))).toEqual([
      'First paragraph.',
      'Second.',
    ])
  })
})

describe('live tail', () => {
  it('keeps a short text whole and a long one to the rows it may use', () => {
    expect(liveTail('a\nb', 5, 80)).toBe('a\nb')
    const long = Array.from({ length: 50 }, (_, index) => `line ${index}`).join('\n')
    const tail = liveTail(long, 10, 80).split('\n')
    expect(tail.length).toBeLessThanOrEqual(10)
    expect(tail.at(-1)).toBe('line 49')
  })
  it('counts wrapped rows and reopens a fence the cut falls inside', () => {
    const wide = `${'x'.repeat(200)}\nend`
    expect(liveTail(wide, 2, 80)).toBe('end')
    const code = ['```ts', ...Array.from({ length: 30 }, (_, index) => `const v${index} = ${index}`)].join(
      '\n',
    )
    const tail = liveTail(code, 5, 80)
    expect(tail.startsWith('```\n')).toBe(true)
    expect(tail.endsWith('const v29 = 29')).toBe(true)
  })
})

describe('user messages', () => {
  it('shows steering delivered with tool results but never the reminders beside it', () => {
    const start = initialChatState({ sessionId: 's1', mode: 'default', model: 'm' })
    const state = reduceEvent(
      { ...start, queued: ['also the docs'] },
      envelope({
        type: 'messageRecorded',
        message: {
          id: 'm2',
          role: 'user',
          content: [
            { type: 'tool_result', toolUseId: 't1', content: [{ type: 'text', text: 'ok' }], isError: false },
            { type: 'text', text: 'also the docs' },
            { type: 'text', text: '<system-reminder>\nThe todo list changed.\n</system-reminder>' },
          ],
        },
      }),
    )
    expect(state.finished).toMatchObject([{ kind: 'user', text: 'also the docs' }])
    expect(state.queued).toEqual([])
  })
})

describe('input history', () => {
  const e = (text: string) => entryOf(text)
  it('recalls older lines with ↑, comes back to the draft with ↓, and skips repeats', () => {
    let history = remember(remember(remember(EMPTY_HISTORY, e('one')), e('two')), e('two'))
    expect(history.entries.map((entry) => entry.text)).toEqual(['one', 'two'])
    let step = recall(history, e('draft'), -1)
    expect(step.shown.text).toBe('two')
    step = recall(step.history, step.shown, -1)
    expect(step.shown.text).toBe('one')
    expect(recall(step.history, step.shown, -1).shown.text).toBe('one')
    step = recall(step.history, step.shown, 1)
    step = recall(step.history, step.shown, 1)
    expect(step.shown.text).toBe('draft')
    history = remember(step.history, e('three'))
    expect(history.index).toBe(3)
  })

  it('recalls a large paste as its one placeholder, with the pasted text behind it', () => {
    const rows = `${Array.from({ length: 30 }, (_, index) => `row ${index + 1}`).join('\n')}\n`
    const buffer = insert(paste(EMPTY_BUFFER, rows), ' summarize')
    expect(buffer.text).toBe('[Pasted text #1 +30 lines] summarize')
    const history = remember(EMPTY_HISTORY, entryOf(buffer.text, buffer.pastes))
    const step = recall(history, e(''), -1)
    expect(step.shown.text).toBe('[Pasted text #1 +30 lines] summarize')
    expect(expandPastes({ ...step.shown, cursor: 0 })).toBe(`${rows} summarize`)
  })
})

describe('subagents', () => {
  it('keeps a working background subagent live and prints it once it ends', () => {
    const agent = {
      id: 'a1',
      agentType: 'Explore',
      description: 'look around',
      status: 'running' as const,
      background: true,
      depth: 1,
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      cost: { inputUsd: 0, outputUsd: 0, cacheReadUsd: 0, cacheWriteUsd: 0, totalUsd: 0 },
      worktree: { type: 'none' as const },
    }
    const start = initialChatState({ sessionId: 's1', mode: 'default', model: 'm' })
    let state = reduceEvent(start, envelope({ type: 'agentUpdated', agent }))
    expect(state.live.agents.get('a1')?.status).toBe('running')
    state = reduceEvent(state, envelope({ type: 'agentUpdated', agent: { ...agent, status: 'done' } }))
    expect(state.live.agents.size).toBe(0)
    expect(state.finished).toMatchObject([{ kind: 'agent', agent: { status: 'done' } }])
  })

  it('leaves a foreground subagent to its Agent card (no row of its own)', () => {
    const agent = {
      id: 'a2',
      agentType: 'Explore',
      description: 'look around',
      status: 'running' as const,
      background: false,
      depth: 1,
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      cost: { inputUsd: 0, outputUsd: 0, cacheReadUsd: 0, cacheWriteUsd: 0, totalUsd: 0 },
      worktree: { type: 'none' as const },
    }
    const start = initialChatState({ sessionId: 's1', mode: 'default', model: 'm' })
    let state = reduceEvent(start, envelope({ type: 'agentUpdated', agent }))
    state = reduceEvent(state, envelope({ type: 'agentUpdated', agent: { ...agent, status: 'done' } }))
    expect(state.live.agents.size).toBe(0)
    expect(state.finished).toEqual([])
  })
})

describe('tool errors', () => {
  it("shows the error result's text for a card that ended in error without a summary", () => {
    const start = initialChatState({ sessionId: 's1', mode: 'default', model: 'm' })
    let state = reduceEvent(
      start,
      envelope({ type: 'toolFinished', toolUseId: 't1', toolName: 'Agent', status: 'error', durationMs: 0 }),
    )
    state = reduceEvent(
      state,
      envelope({
        type: 'messageRecorded',
        message: {
          id: 'm1',
          role: 'user',
          content: [
            {
              type: 'tool_result',
              toolUseId: 't1',
              content: [{ type: 'text', text: 'Unknown agent type "x"; use one of: general, explore.' }],
              isError: true,
            },
          ],
        },
      }),
    )
    expect(state.finished.at(-1)).toEqual({
      kind: 'notice',
      key: expect.any(String),
      level: 'error',
      text: 'Agent: Unknown agent type "x"; use one of: general, explore.',
    })
    expect(state.unexplained.size).toBe(0)
  })
})

describe('the verification badge in the status line', () => {
  it("keeps the last turn's badge and shows it after the cost", async () => {
    const { render } = await import('ink-testing-library')
    const { createElement } = await import('react')
    const { StatusLine } = await import('../../src/tui/status-line.js')
    const finished = (badge: Extract<EngineEvent, { type: 'turnFinished' }>['badge']): EngineEvent => ({
      type: 'turnFinished',
      turnId: 't1',
      outcome: { type: 'done' },
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      cost: { inputUsd: 0, outputUsd: 0, cacheReadUsd: 0, cacheWriteUsd: 0, totalUsd: 0 },
      badge,
      mutated: true,
    })
    const line = (badge: Extract<EngineEvent, { type: 'turnFinished' }>['badge']) => {
      const state = reduceEvent(
        initialChatState({ sessionId: 's', mode: 'default', model: 'm' }),
        envelope(finished(badge)),
      )
      const app = render(createElement(StatusLine, { state }))
      const frame = app.lastFrame() ?? ''
      app.unmount()
      return frame
    }
    expect(line({ type: 'verified', checkId: 'test' })).toContain('$0.0000 · ✓ verified (test)')
    expect(line({ type: 'failed', checkId: 'test', reason: 'exit 1' })).toContain('✗ failed (test)')
    expect(line({ type: 'unverified', reason: 'no check ran' })).toContain('unverified')
    expect(line({ type: 'notApplicable' })).not.toMatch(/verified|failed/)
  })
})

describe('pickerKey', () => {
  const rows = [
    { key: 'a', label: 'a', disabled: 'no' },
    { key: 'b', label: 'b' },
    { key: 'c', label: 'c', disabled: 'no' },
    { key: 'd', label: 'd' },
  ]
  it('moves over disabled rows, stops at the ends, and chooses only enabled rows', () => {
    expect(pickerKey(rows, 1, '', { ...NO_KEY, downArrow: true })).toEqual({ type: 'move', index: 3 })
    expect(pickerKey(rows, 3, '', { ...NO_KEY, downArrow: true })).toEqual({ type: 'move', index: 3 })
    expect(pickerKey(rows, 1, '', { ...NO_KEY, upArrow: true })).toEqual({ type: 'move', index: 1 })
    expect(pickerKey(rows, 0, '', { ...NO_KEY, return: true })).toEqual({ type: 'none' })
    expect(pickerKey(rows, 3, '', { ...NO_KEY, return: true })).toEqual({ type: 'choose', index: 3 })
    expect(pickerKey(rows, 3, '2', NO_KEY)).toEqual({ type: 'choose', index: 1 })
    expect(pickerKey(rows, 3, '', { ...NO_KEY, escape: true })).toEqual({ type: 'cancel' })
  })
  it('keeps the selected row in a window of the list', () => {
    expect(pickerWindow(5, 4, 10)).toEqual({ first: 0, last: 5 })
    expect(pickerWindow(30, 29, 10)).toEqual({ first: 20, last: 30 })
    expect(pickerWindow(30, 12, 10)).toEqual({ first: 7, last: 17 })
  })
})

describe('tool output in the transcript', () => {
  const start = () => initialChatState({ sessionId: 's1', mode: 'default', model: 'm' })
  const started = (id: string, toolName = 'Bash') =>
    envelope({ type: 'toolStarted', toolUseId: id, toolName, title: `${toolName} x`, input: {} })
  const finished = (id: string, status: 'ok' | 'cancelled' = 'ok', toolName = 'Bash') =>
    envelope({ type: 'toolFinished', toolUseId: id, toolName, status, durationMs: 5 })
  const result = (id: string, text: string) =>
    envelope({
      type: 'messageRecorded',
      message: {
        id: `r-${id}`,
        role: 'user',
        content: [{ type: 'tool_result', toolUseId: id, isError: false, content: [{ type: 'text', text }] }],
      },
    })
  const ten = Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join('\n')

  it('collapses a successful call to its last lines, whichever of result and finish comes first', () => {
    let state = reduceEvent(reduceEvent(start(), started('t1')), finished('t1'))
    // The card waits, drawn live, for its result.
    expect(state.finished).toEqual([])
    state = reduceEvent(state, result('t1', `${ten}\n`))
    expect(state.finished.at(-1)).toMatchObject({
      kind: 'tool',
      card: { status: 'ok', output: { lines: ['line 7', 'line 8', 'line 9', 'line 10'], hidden: 6 } },
    })
    state = reduceEvent(
      reduceEvent(reduceEvent(state, started('t2', 'Grep')), result('t2', 'a.ts:1')),
      finished('t2', 'ok', 'Grep'),
    )
    expect(state.finished.at(-1)).toMatchObject({
      card: { toolName: 'Grep', output: { lines: ['a.ts:1'], hidden: 0 } },
    })
    expect(state.outputs.map((output) => output.toolUseId)).toEqual(['t1', 't2'])
    expect(state.live.tools.size).toBe(0)
  })

  it('keeps what a cancelled call had printed, and shows no output for file tools', () => {
    let state = reduceEvent(start(), started('t1'))
    state = reduceEvent(
      state,
      envelope({
        type: 'toolProgress',
        toolUseId: 't1',
        progress: { type: 'output', stream: 'stdout', text: 'partial\n' },
      }),
    )
    state = reduceEvent(state, finished('t1', 'cancelled'))
    expect(state.finished.at(-1)).toMatchObject({
      card: { status: 'cancelled', output: { lines: ['partial'] } },
    })
    state = reduceEvent(
      reduceEvent(reduceEvent(state, started('t3', 'Read')), finished('t3', 'ok', 'Read')),
      result('t3', ten),
    )
    const read = state.finished.at(-1)
    expect(read).toMatchObject({ kind: 'tool', card: { toolName: 'Read' } })
    expect(read?.kind === 'tool' ? read.card.output : 'none').toBeUndefined()
  })

  it('prints a card still waiting for its result when the turn ends', () => {
    let state = reduceEvent(reduceEvent(start(), started('t1')), finished('t1'))
    state = reduceEvent(
      state,
      envelope({
        type: 'turnFinished',
        turnId: 'u1',
        outcome: { type: 'done' },
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
        cost: { inputUsd: 0, outputUsd: 0, cacheReadUsd: 0, cacheWriteUsd: 0, totalUsd: 0 },
        badge: { type: 'notApplicable' },
        mutated: false,
      }),
    )
    expect(state.finished.at(-1)).toMatchObject({ kind: 'tool', card: { toolUseId: 't1' } })
    expect(state.live.tools.size).toBe(0)
  })
})

describe('the rewind picker and the badge', () => {
  const user = (id: string, text: string): EngineEvent => ({
    type: 'messageRecorded',
    message: { id, role: 'user', content: [{ type: 'text', text }] },
  })
  const finished = (mutated: boolean): EngineEvent => ({
    type: 'turnFinished',
    turnId: 't',
    outcome: { type: 'done' },
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    cost: { inputUsd: 0, outputUsd: 0, cacheReadUsd: 0, cacheWriteUsd: 0, totalUsd: 0 },
    badge: mutated ? { type: 'verified', checkId: 'test' } : { type: 'notApplicable' },
    mutated,
  })

  it('marks the messages whose turn changed files, and drops the badge once code is rewound', async () => {
    const { messageRows } = await import('../../src/tui/rewind-picker.js')
    let state = initialChatState({ sessionId: 's', mode: 'default', model: 'm' })
    for (const event of [user('m1', 'fix it'), finished(true), user('m2', 'explain it'), finished(false)])
      state = reduceEvent(state, envelope(event))
    expect(messageRows(state.prompts).map((row) => row.detail)).toEqual(['changed files', '(latest)'])
    state = reduceEvent(state, envelope(user('m3', 'fix more')))
    state = reduceEvent(state, envelope(finished(true)))
    expect(state.badge).toMatchObject({ type: 'verified' })
    // A conversation-only rewind leaves the tree (and its badge) as they were.
    const talk = reduceEvent(state, envelope({ type: 'rewound', messageId: 'm3', scope: 'conversation' }))
    expect(talk.badge).toMatchObject({ type: 'verified' })
    const code = reduceEvent(
      state,
      envelope({ type: 'rewound', messageId: 'm3', scope: 'both', restoredFiles: ['a.ts'] }),
    )
    expect(code.badge).toBeUndefined()
    expect(messageRows(code.prompts).map((row) => row.detail)).toEqual(['changed files', '(latest)'])
  })
})

describe('replayed tool cards', () => {
  it('titles a call on a project file by its path relative to the project, as live cards do', async () => {
    const { replayedToolTitle } = await import('../../src/tui/replay-transcript.js')
    expect(replayedToolTitle('Edit', { file_path: '/work/app/src/math.ts' }, '/work/app')).toBe('src/math.ts')
    expect(replayedToolTitle('Read', { file_path: '/etc/hosts' }, '/work/app')).toBe('/etc/hosts')
    expect(replayedToolTitle('Bash', { command: 'npm test\necho done' }, '/work/app')).toBe('npm test')
  })
})
