import type { Cost, LogRecord, LogRecordOf, Message, TurnOutcome, Usage } from '@z-engine/protocol'
import { addCost, addUsage, ZERO_COST, ZERO_USAGE } from '@z-engine/protocol'

/**
 * Builds realistic log records with deterministic ids (`<prefix>-<n>`), for the conformance suite,
 * crash tests and benchmarks. Each method returns the records it made, in append order.
 */
export class RecordFactory {
  private counter = 0
  private sessionUsage: Usage = ZERO_USAGE
  private sessionCost: Cost = ZERO_COST

  constructor(
    private readonly prefix = 'r',
    private readonly clock: () => string = () => '2026-01-01T00:00:00.000Z',
  ) {}

  /** A fresh id. */
  nextId(): string {
    this.counter++
    return `${this.prefix}-${this.counter}`
  }

  private base() {
    return { id: this.nextId(), at: this.clock() }
  }

  /** A message record. */
  message(
    role: Message['role'],
    content: Message['content'],
    turnId?: string,
  ): LogRecordOf<'messageRecorded'> {
    const base = this.base()
    return {
      type: 'messageRecorded',
      ...base,
      message: { id: `m-${base.id}`, role, content },
      ...(turnId !== undefined ? { turnId } : {}),
    }
  }

  /** `turnStarted` for a prompt, then the prompt message. */
  startTurn(text: string): { turnId: string; records: LogRecord[]; messageId: string } {
    const turnId = `t-${this.nextId()}`
    const prompt = this.message('user', [{ type: 'text', text }], turnId)
    const started: LogRecordOf<'turnStarted'> = {
      type: 'turnStarted',
      ...this.base(),
      turnId,
      messageId: prompt.message.id,
    }
    return { turnId, records: [started, prompt], messageId: prompt.message.id }
  }

  /** An assistant message calling tools, its usage, and (unless `answered` is false) the results. */
  toolRound(turnId: string, calls: number, answered = true): LogRecord[] {
    const uses = Array.from({ length: calls }, (_, index) => ({
      type: 'tool_use' as const,
      id: `call-${this.nextId()}`,
      name: index % 2 === 0 ? 'Read' : 'Bash',
      input: index % 2 === 0 ? { file_path: `src/file-${index}.ts` } : { command: 'npm test' },
    }))
    const assistant = this.message(
      'assistant',
      [{ type: 'text', text: 'Let me look at the code.' }, ...uses],
      turnId,
    )
    const records: LogRecord[] = [assistant, this.usage(turnId)]
    if (answered) {
      const results = uses.map((use) => ({
        type: 'tool_result' as const,
        toolUseId: use.id,
        content: [{ type: 'text' as const, text: `output of ${use.name}\n${'line of output\n'.repeat(8)}` }],
        isError: false,
      }))
      records.push(this.message('user', results, turnId))
    }
    return records
  }

  /** One request's usage and cost. */
  usage(turnId?: string): LogRecordOf<'usageUpdated'> {
    const usage = { inputTokens: 1200, outputTokens: 300, cacheReadTokens: 800, cacheWriteTokens: 0 }
    const cost = {
      inputUsd: 0.0036,
      outputUsd: 0.0045,
      cacheReadUsd: 0.00024,
      cacheWriteUsd: 0,
      totalUsd: 0.00834,
    }
    this.sessionUsage = addUsage(this.sessionUsage, usage)
    this.sessionCost = addCost(this.sessionCost, cost)
    return {
      type: 'usageUpdated',
      ...this.base(),
      usage,
      cost,
      sessionUsage: this.sessionUsage,
      sessionCost: this.sessionCost,
      model: 'claude-sonnet',
      ...(turnId !== undefined ? { turnId } : {}),
    }
  }

  /** A final answer and `turnFinished`. */
  finishTurn(turnId: string, outcome: TurnOutcome = { type: 'done' }): LogRecord[] {
    return [
      this.message('assistant', [{ type: 'text', text: 'Done: the test passes now.' }], turnId),
      {
        type: 'turnFinished',
        ...this.base(),
        turnId,
        outcome,
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
        cost: ZERO_COST,
        badge: { type: 'notApplicable' },
        mutated: false,
      },
    ]
  }

  /** A complete turn: prompt, `rounds` tool rounds, answer. */
  turn(text: string, rounds = 2, calls = 2): LogRecord[] {
    const { turnId, records } = this.startTurn(text)
    for (let round = 0; round < rounds; round++) records.push(...this.toolRound(turnId, calls))
    records.push(...this.finishTurn(turnId))
    return records
  }

  /** A title change. */
  title(title: string): LogRecordOf<'titleChanged'> {
    return { type: 'titleChanged', ...this.base(), title }
  }

  /** A todo list. */
  todos(count: number): LogRecordOf<'todosUpdated'> {
    return {
      type: 'todosUpdated',
      ...this.base(),
      todos: Array.from({ length: count }, (_, index) => ({
        content: `step ${index + 1}`,
        status: index === 0 ? ('in_progress' as const) : ('pending' as const),
      })),
    }
  }

  /** A checkpoint taken before a user message. */
  checkpoint(messageId: string, commit: string): LogRecordOf<'checkpointCreated'> {
    const base = this.base()
    return { type: 'checkpointCreated', ...base, checkpoint: { id: `cp-${base.id}`, messageId, commit } }
  }

  /** A realistic session of `turns` turns with a title, todos and a checkpoint per turn. */
  session(turns: number): LogRecord[] {
    const records: LogRecord[] = [this.title('Fix the failing test'), this.todos(3)]
    for (let index = 0; index < turns; index++) records.push(...this.turn(`request number ${index}`))
    return records
  }
}
