import type { LogRecord, Message } from '@z-engine/protocol'
import { LOG_FORMAT_VERSION } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { RecordFactory } from '../src/index.js'
import { ReplayState } from '../src/replay-state.js'

const AT = '2026-01-01T00:00:00.000Z'
const header = (extra: Record<string, unknown> = {}): LogRecord => ({
  type: 'header',
  id: 'h',
  at: AT,
  formatVersion: LOG_FORMAT_VERSION,
  sessionId: 's',
  projectRoot: '/p',
  createdAt: AT,
  ...extra,
})

function replay(records: readonly unknown[]) {
  const state = new ReplayState('log.jsonl')
  records.forEach((record, index) => {
    state.apply(record, index * 100, 99)
  })
  return { snapshot: state.finish(), problems: state.problems }
}

const ids = (messages: readonly Message[]) => messages.map((message) => message.id)

const SUMMARY: Message = { id: 'summary', role: 'user', content: [{ type: 'text', text: 'earlier: ...' }] }

/** The ids of the messages among `records`. */
const idsOf = (records: readonly LogRecord[]) =>
  records.flatMap((record) => (record.type === 'messageRecorded' ? [record.message.id] : []))

/** A task view (`v1`) keeping `keptMessageIds` behind an index message (id `index`) saying `indexText`. */
function viewRecord(keptMessageIds: string[], indexText: string): LogRecord {
  const indexMessage: Message = { id: 'index', role: 'user', content: [{ type: 'text', text: indexText }] }
  return {
    type: 'taskViewApplied',
    id: 'v1',
    at: AT,
    view: { id: 'view-1', keptMessageIds, restored: false, indexMessage },
  }
}

/** An automatic compaction (`c1`) into {@link SUMMARY}, keeping from `firstKeptMessageId` on. */
function compactionRecord(firstKeptMessageId: string, messagesSummarized: number): LogRecord {
  return {
    type: 'compacted',
    id: 'c1',
    at: AT,
    marker: { id: 'k1', trigger: 'auto', tokensBefore: 1000, tokensAfter: 200, messagesSummarized },
    summary: SUMMARY,
    firstKeptMessageId,
  }
}

describe('replay', () => {
  it('applies a compaction to the working set but keeps the display transcript whole', () => {
    const factory = new RecordFactory()
    const first = factory.turn('one', 1, 1)
    const second = factory.turn('two', 1, 1)
    const firstKept = second.find((record) => record.type === 'messageRecorded')
    if (firstKept?.type !== 'messageRecorded') throw new Error('fixture')
    const compaction = compactionRecord(firstKept.message.id, 4)
    const { snapshot, problems } = replay([header(), ...first, ...second, compaction])
    expect(problems).toEqual([])
    expect(snapshot.workingSet[0]).toEqual(SUMMARY)
    expect(ids(snapshot.workingSet.slice(1))).toEqual(
      second.flatMap((record) => (record.type === 'messageRecorded' ? [record.message.id] : [])),
    )
    expect(snapshot.transcript.filter((item) => item.kind === 'message')).toHaveLength(8)
    expect(snapshot.compactions).toHaveLength(1)
    expect(snapshot.transcript.at(-1)).toMatchObject({ kind: 'compaction', recordId: 'c1' })
  })

  it('applies a task view, appends new messages to it, and restores the full set', () => {
    const factory = new RecordFactory()
    const records = factory.turn('one', 1, 1)
    const messages = records.flatMap((record) => (record.type === 'messageRecorded' ? [record.message] : []))
    const view = viewRecord([messages[0]!.id, messages.at(-1)!.id], 'index of history')
    const later = factory.turn('two', 0)
    const applied = replay([header(), ...records, view, ...later])
    const laterIds = idsOf(later)
    expect(ids(applied.snapshot.workingSet)).toEqual([
      'index',
      messages[0]!.id,
      messages.at(-1)!.id,
      ...laterIds,
    ])
    expect(applied.snapshot.taskViews).toHaveLength(1)
    const restore: LogRecord = {
      type: 'taskViewApplied',
      id: 'v2',
      at: AT,
      view: { id: 'view-2', keptMessageIds: [], restored: true },
    }
    const restored = replay([header(), ...records, view, ...later, restore])
    expect(ids(restored.snapshot.workingSet)).toEqual([...ids(messages), ...laterIds])
  })

  it('a compaction while a task view is in use summarizes the view, as the engine did', () => {
    const factory = new RecordFactory()
    const first = factory.turn('one', 1, 1)
    const second = factory.turn('two', 1, 1)
    const third = factory.turn('three', 1, 1)
    const view = viewRecord([...idsOf(first), ...idsOf(third)], 'left out: two')
    // The engine summarized [index, ...first] and kept `third` word for word: `second` stays out.
    const compaction = compactionRecord(idsOf(first)[0]!, 5)
    const { snapshot, problems } = replay([header(), ...first, ...second, ...third, view, compaction])
    expect(problems).toEqual([])
    expect(ids(snapshot.workingSet)).toEqual(['summary', ...idsOf(first), ...idsOf(third)])
  })

  it('rewinds the conversation to before a user message; a code rewind keeps it', () => {
    const factory = new RecordFactory()
    const first = factory.turn('one')
    const todos = factory.todos(2)
    const second = factory.startTurn('two')
    const rest = [
      factory.todos(5),
      ...factory.toolRound(second.turnId, 1),
      ...factory.finishTurn(second.turnId),
    ]
    const all = [header(), ...first, todos, ...second.records, ...rest]
    const rewind = (scope: 'code' | 'conversation' | 'both'): LogRecord => ({
      type: 'rewound',
      id: `rw-${scope}`,
      at: AT,
      messageId: second.messageId,
      scope,
    })
    const conversation = replay([...all, rewind('conversation')])
    expect(conversation.problems).toEqual([])
    expect(ids(conversation.snapshot.workingSet)).toEqual(
      first.flatMap((record) => (record.type === 'messageRecorded' ? [record.message.id] : [])),
    )
    expect(conversation.snapshot.turns).toHaveLength(1)
    expect(conversation.snapshot.todos).toHaveLength(2)
    expect(conversation.snapshot.transcript.at(-1)).toMatchObject({
      kind: 'notice',
      recordId: 'rw-conversation',
    })
    // Usage already spent stays counted.
    expect(conversation.snapshot.usage).toEqual(replay(all).snapshot.usage)
    const code = replay([...all, rewind('code')])
    expect(code.snapshot.workingSet).toEqual(replay(all).snapshot.workingSet)
    // After a rewind the conversation continues from the rewound point.
    const third = factory.turn('three', 0)
    const continued = replay([...all, rewind('both'), ...third])
    expect(continued.snapshot.turns.map((turn) => turn.turnId)).toHaveLength(2)
    const unknown = replay([...all, { ...rewind('both'), messageId: 'nope' }])
    expect(unknown.problems.map((problem) => problem.kind)).toEqual(['inconsistent'])
  })

  it('marks a turn interrupted when a new turn starts without the old one finishing', () => {
    const factory = new RecordFactory()
    const crashed = factory.startTurn('one')
    const round = factory.toolRound(crashed.turnId, 1, false)
    const next = factory.turn('two', 0)
    const { snapshot } = replay([header(), ...crashed.records, ...round, ...next])
    expect(snapshot.turns.map((turn) => turn.outcome.type)).toEqual(['interrupted', 'done'])
    const ended = snapshot.transcript.filter((item) => item.kind === 'turnEnded')
    expect(ended.map((item) => item.kind === 'turnEnded' && item.outcome.type)).toEqual([
      'interrupted',
      'done',
    ])
    // The dangling call is answered inside the next user message, ahead of its text.
    const prompt = snapshot.workingSet[2]
    expect(prompt?.content[0]).toMatchObject({ type: 'tool_result', isError: true })
    expect(prompt?.content[1]).toMatchObject({ type: 'text', text: 'two' })
  })

  it('derives tool statuses: ok, error, denied by approval, cancelled by user', () => {
    const factory = new RecordFactory()
    const { turnId, records } = factory.startTurn('go')
    const call = (id: string) => ({ type: 'tool_use' as const, id, name: 'Bash', input: { command: id } })
    const result = (id: string, text: string, isError: boolean) => ({
      type: 'tool_result' as const,
      toolUseId: id,
      content: [{ type: 'text' as const, text }],
      isError,
    })
    const log: unknown[] = [
      header(),
      ...records,
      factory.message('assistant', [call('a'), call('b'), call('c'), call('d')], turnId),
      {
        type: 'approvalRequested',
        id: 'ap',
        at: AT,
        request: { id: 'q1', toolUseId: 'c', toolName: 'Bash', title: 'Run?', reason: 'ask rule' },
      },
      { type: 'approvalResolved', id: 'ar', at: AT, approvalId: 'q1', decision: { type: 'deny' } },
      factory.message(
        'user',
        [
          result('a', 'fine', false),
          result('b', 'boom', true),
          result('c', 'denied', true),
          result('d', 'cancelled by user', true),
        ],
        turnId,
      ),
    ]
    const { snapshot } = replay(log)
    const statuses = snapshot.transcript.flatMap((item) => (item.kind === 'tool' ? [item.status] : []))
    expect(statuses).toEqual(['ok', 'error', 'denied', 'cancelled'])
  })

  it('a call refused by a rule, plan mode or a hook replays as denied with its reason; one cancelled while asking as cancelled (issue 39)', () => {
    const factory = new RecordFactory()
    const { turnId, records } = factory.startTurn('go')
    const call = (id: string) => ({ type: 'tool_use' as const, id, name: 'Bash', input: { command: id } })
    const result = (id: string, text: string) => ({
      type: 'tool_result' as const,
      toolUseId: id,
      content: [{ type: 'text' as const, text }],
      isError: true,
    })
    const refusals = [
      'Permission denied: a deny rule forbids "rm -rf x"',
      'Permission denied: plan mode is read-only and this command is not proven read-only (rm writes)',
      'Blocked by a PreToolUse hook: no deploys on Fridays',
      'Permission denied by a PermissionRequest hook: not now',
      'Not run: a PreToolUse hook stopped the turn (stop)',
    ]
    const ids = refusals.map((_, index) => `d${index}`)
    const log: unknown[] = [
      header(),
      ...records,
      factory.message('assistant', [...ids.map(call), call('c')], turnId),
      {
        type: 'approvalRequested',
        id: 'ap',
        at: AT,
        request: { id: 'q1', toolUseId: 'c', toolName: 'Bash', title: 'Run?', reason: 'ask' },
      },
      // A turn interrupted while its approval waited: journaled as a deny, the call was cancelled.
      { type: 'approvalResolved', id: 'ar', at: AT, approvalId: 'q1', decision: { type: 'deny' } },
      factory.message(
        'user',
        [...ids.map((id, index) => result(id, refusals[index]!)), result('c', 'cancelled by user')],
        turnId,
      ),
    ]
    const { snapshot } = replay(log)
    const tools = snapshot.transcript.flatMap((item) => (item.kind === 'tool' ? [item] : []))
    expect(tools.map((item) => item.status)).toEqual([...refusals.map(() => 'denied'), 'cancelled'])
    expect(tools.map((item) => item.refusal)).toEqual([...refusals, undefined])
  })

  it("keeps the user's answer to a question and a deny's feedback on their tool calls", () => {
    const factory = new RecordFactory()
    const { turnId, records } = factory.startTurn('go')
    const log: unknown[] = [
      header(),
      ...records,
      factory.message(
        'assistant',
        [
          { type: 'tool_use', id: 'ask', name: 'AskUserQuestion', input: { questions: [] } },
          { type: 'tool_use', id: 'rm', name: 'Bash', input: { command: 'rm -rf build' } },
        ],
        turnId,
      ),
      {
        type: 'questionAsked',
        id: 'qa',
        at: AT,
        question: {
          id: 'q1',
          toolUseId: 'ask',
          questions: [{ question: 'Which?', header: 'W', options: [{ label: 'A' }], multiSelect: false }],
        },
      },
      {
        type: 'questionAnswered',
        id: 'qr',
        at: AT,
        questionId: 'q1',
        response: { type: 'answered', answers: [{ question: 'Which?', selected: ['A'] }] },
      },
      {
        type: 'approvalRequested',
        id: 'ap',
        at: AT,
        request: { id: 'p1', toolUseId: 'rm', toolName: 'Bash', title: 'Run?', reason: 'ask rule' },
      },
      {
        type: 'approvalResolved',
        id: 'ar',
        at: AT,
        approvalId: 'p1',
        decision: { type: 'deny', feedback: 'keep the build folder' },
      },
    ]
    const { snapshot, problems } = replay(log)
    expect(problems).toEqual([])
    const tools = snapshot.transcript.filter((item) => item.kind === 'tool')
    expect(tools[0]).toMatchObject({
      toolUseId: 'ask',
      answer: { type: 'answered', answers: [{ question: 'Which?', selected: ['A'] }] },
    })
    expect(tools[1]).toMatchObject({ toolUseId: 'rm', denyFeedback: 'keep the build folder' })
  })

  it('reports bad records without stopping: invalid, unknown type, missing header, newer format', () => {
    const factory = new RecordFactory()
    const turn = factory.turn('one', 0)
    const noHeader = replay([...turn, { type: 'fromTheFuture', id: 'x' }, { type: 'message', id: 'y' }, 42])
    expect(noHeader.problems.map((problem) => problem.kind)).toEqual([
      'missingHeader',
      'unknownType',
      'invalid',
      'invalid',
    ])
    expect(noHeader.problems[1]?.offset).toBe(turn.length * 100)
    expect(noHeader.snapshot.turns).toHaveLength(1)
    const newer = replay([header({ formatVersion: LOG_FORMAT_VERSION + 1 }), header()])
    expect(newer.problems.map((problem) => problem.kind)).toEqual(['newerFormat', 'inconsistent'])
  })

  it('keeps the latest state per agent, the checkpoints, mode, model and usage totals', () => {
    const factory = new RecordFactory()
    const agent = {
      id: 'ag1',
      agentType: 'explore',
      description: 'look around',
      status: 'running' as const,
      background: false,
      depth: 1,
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      cost: { inputUsd: 0, outputUsd: 0, cacheReadUsd: 0, cacheWriteUsd: 0, totalUsd: 0 },
      worktree: { type: 'none' as const },
    }
    const { snapshot } = replay([
      header(),
      { type: 'agentUpdated', id: 'a1', at: AT, agent },
      { type: 'agentUpdated', id: 'a2', at: AT, agent: { ...agent, status: 'done', result: 'found it' } },
      factory.checkpoint('m-1', 'abc123'),
      { type: 'modeChanged', id: 'mc', at: AT, mode: 'plan' },
      { type: 'modelChanged', id: 'mm', at: AT, model: 'claude-opus' },
      factory.usage(),
      factory.usage(),
      // A subagent's message in the main log stays out of the main working set.
      { ...factory.message('assistant', [{ type: 'text', text: 'sub' }]), agentId: 'ag1' },
    ])
    expect(snapshot.agents).toEqual([{ ...agent, status: 'done', result: 'found it' }])
    expect(snapshot.checkpoints.map((checkpoint) => checkpoint.commit)).toEqual(['abc123'])
    expect(snapshot).toMatchObject({ mode: 'plan', model: 'claude-opus' })
    expect(snapshot.usage.inputTokens).toBe(2400)
    expect(snapshot.cost.totalUsd).toBeCloseTo(0.01668)
    expect(snapshot.workingSet).toEqual([])
  })

  it('reads format-2 records (the names before records were events) to the same snapshot', () => {
    const factory = new RecordFactory()
    const records: LogRecord[] = [
      ...factory.session(2),
      factory.checkpoint('m-r-4', 'abc123'),
      {
        type: 'checkRecorded',
        id: 'ck',
        at: AT,
        record: { name: 'test', command: 'npm test', exitCode: 0, at: AT, outputTail: '' },
      } as unknown as LogRecord,
      { type: 'rewound', id: 'rw', at: AT, messageId: 'm-r-4', scope: 'conversation' },
    ]
    // Format 2 wrote eight of them under names of their own, usage without session totals.
    const OLD_NAMES: Record<string, string> = {
      messageRecorded: 'message',
      todosUpdated: 'todos',
      checkRecorded: 'check',
      checkpointCreated: 'checkpoint',
      compacted: 'compaction',
      rewound: 'rewind',
      usageUpdated: 'usage',
      taskViewApplied: 'taskView',
    }
    const formatTwo = records.map((record) => {
      const { sessionUsage: _u, sessionCost: _c, record: check, ...rest } = record as Record<string, unknown>
      return {
        ...rest,
        type: OLD_NAMES[record.type] ?? record.type,
        ...(record.type === 'checkRecorded' ? { check } : {}),
      }
    })
    expect(formatTwo.filter((record) => record.type === 'message').length).toBeGreaterThan(4)
    const today = replay([header(), ...records])
    const old = replay([header({ formatVersion: 2 }), ...formatTwo])
    expect(old.problems).toEqual([])
    expect({ ...old.snapshot, formatVersion: LOG_FORMAT_VERSION }).toEqual(today.snapshot)
    expect(old.snapshot.formatVersion).toBe(2)
    expect(old.snapshot.checks).toHaveLength(1)
    expect(old.snapshot.usage.inputTokens).toBe(today.snapshot.usage.inputTokens)
    // A format-2 log a newer engine continued holds both vocabularies; both replay.
    const mixed = replay([header({ formatVersion: 2 }), ...formatTwo.slice(0, 10), ...records.slice(10)])
    expect(mixed.problems).toEqual([])
    expect(mixed.snapshot.transcript).toEqual(today.snapshot.transcript)
  })
})
