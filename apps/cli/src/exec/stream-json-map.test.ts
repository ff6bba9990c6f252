import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { EngineEvent, EventEnvelope } from '@z-engine/protocol'
import { Ajv } from 'ajv'
import { describe, expect, it } from 'vitest'
import { createStreamJsonMapper } from './stream-json-map.js'

const schema = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../../schema/stream-json.schema.json'), 'utf8'),
) as object
const validate = new Ajv({ strict: true }).compile(schema)

const usage = { inputTokens: 5, outputTokens: 2, cacheReadTokens: 1, cacheWriteTokens: 0 }
const cost = { inputUsd: 0.01, outputUsd: 0.02, cacheReadUsd: 0, cacheWriteUsd: 0, totalUsd: 0.03 }
let seq = 0
function envelope(event: EngineEvent, agentId?: string): EventEnvelope {
  return {
    seq: seq++,
    sessionId: 's1',
    at: '2026-01-01T00:00:00.000Z',
    event,
    ...(agentId ? { agentId } : {}),
  }
}
function mapAll(events: Array<EngineEvent | [EngineEvent, string]>) {
  const map = createStreamJsonMapper()
  const lines = events.flatMap((item) =>
    Array.isArray(item) ? map(envelope(item[0], item[1])) : map(envelope(item)),
  )
  for (const line of lines)
    expect(validate(line), `${JSON.stringify(line)} ${JSON.stringify(validate.errors)}`).toBe(true)
  return lines
}
const finished = (outcome: Extract<EngineEvent, { type: 'turnFinished' }>['outcome']): EngineEvent => ({
  type: 'turnFinished',
  turnId: 't1',
  outcome,
  usage,
  cost,
  badge: { type: 'notApplicable' },
  mutated: false,
})

describe('createStreamJsonMapper', () => {
  it('a rewind is a restore line; a call denied without asking is a permission line and a denial', () => {
    const lines = mapAll([
      { type: 'rewound', messageId: 'm1', scope: 'code', restoredFiles: ['a.txt'], checkpointId: 'cp1' },
      {
        type: 'messageRecorded',
        message: {
          id: 'm2',
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'tu1', name: 'Edit', input: { file_path: 'a.txt' } }],
        },
      },
      {
        type: 'toolFinished',
        toolUseId: 'tu1',
        toolName: 'Edit',
        status: 'denied',
        durationMs: 0,
        output: 'Permission denied: plan mode does not change files',
        readOnly: false,
      },
      finished({ type: 'done' }),
    ] as EngineEvent[])
    expect(lines[0]).toEqual({
      type: 'restore',
      session_id: 's1',
      message_id: 'm1',
      scope: 'code',
      restored_files: ['a.txt'],
      checkpoint_id: 'cp1',
    })
    expect(lines[1]).toEqual({
      type: 'permission',
      session_id: 's1',
      tool_use_id: 'tu1',
      tool_name: 'Edit',
      decision: 'deny',
      reason: 'plan mode does not change files',
    })
    expect(lines.at(-1)).toMatchObject({
      type: 'final',
      outcome: 'done',
      is_error: true,
      permission_denials: [
        {
          tool_name: 'Edit',
          tool_use_id: 'tu1',
          tool_input: { file_path: 'a.txt' },
          reason: 'plan mode does not change files',
        },
      ],
    })
  })

  it('a failed turn gives an error line, then final with the error', () => {
    const lines = mapAll([finished({ type: 'failed', error: { code: 'model', message: 'overloaded' } })])
    expect(lines).toEqual([
      { type: 'error', session_id: 's1', code: 'model', message: 'overloaded' },
      expect.objectContaining({
        type: 'final',
        outcome: 'failed',
        error: { code: 'model', message: 'overloaded' },
        cost_usd: 0.03,
        verification: { status: 'not_applicable' },
      }),
    ])
  })

  it('budget exhaustion names the budget; result is the last main-agent text of the turn', () => {
    const lines = mapAll([
      {
        type: 'messageRecorded',
        message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'main answer' }] },
      },
      [
        {
          type: 'messageRecorded',
          message: { id: 'm2', role: 'assistant', content: [{ type: 'text', text: 'sub' }] },
        },
        'a1',
      ],
      finished({ type: 'budgetExhausted', budget: 'sessionCostCap' }),
    ])
    expect(lines).toEqual([
      expect.objectContaining({
        type: 'final',
        outcome: 'budget_exhausted',
        budget: 'sessionCostCap',
        result: 'main answer',
      }),
    ])
  })

  it('subagent lines carry agent_id and a subagent turnFinished is not the final', () => {
    const lines = mapAll([
      [{ type: 'textDelta', id: 'p1', delta: 'sub text' }, 'a1'],
      [finished({ type: 'done' }), 'a1'],
    ])
    expect(lines).toEqual([{ type: 'text', session_id: 's1', agent_id: 'a1', text: 'sub text' }])
  })

  it('notices, retries, trust and approvals of every kind map to their lines', () => {
    const lines = mapAll([
      { type: 'notice', level: 'warning', message: 'sandbox missing', code: 'sandbox' },
      { type: 'notice', level: 'info', message: 'Rewind left 1 file alone', code: 'rewindLeftAlone' },
      { type: 'notice', level: 'error', message: 'summary failed' },
      { type: 'retrying', attempt: 1, delayMs: 500, reason: 'overloaded' },
      { type: 'trustRequired', projectRoot: '/p', categories: ['hooks'] },
      { type: 'approvalResolved', approvalId: 'ap1', decision: { type: 'allowSession', rule: 'Bash(ls)' } },
      { type: 'approvalResolved', approvalId: 'ap2', decision: { type: 'allowProject', rule: 'Edit(/*)' } },
      { type: 'approvalResolved', approvalId: 'ap3', decision: { type: 'allowOnce' } },
      { type: 'textDelta', id: 'p', delta: '' },
    ])
    expect(lines.map((line) => [line.type, 'code' in line ? line.code : undefined])).toEqual([
      ['warning', 'sandbox'],
      ['info', 'rewindLeftAlone'],
      ['error', undefined],
      ['warning', 'retrying'],
      ['warning', 'trust_required'],
      ['permission_decision', undefined],
      ['permission_decision', undefined],
      ['permission_decision', undefined],
    ])
    expect(lines[5]).toMatchObject({ decision: 'allow', scope: 'session', rule: 'Bash(ls)' })
    expect(lines[6]).toMatchObject({ decision: 'allow', scope: 'project' })
    expect(lines[7]).toMatchObject({ decision: 'allow', scope: 'once' })
  })

  it('a tool result takes its status from toolFinished and its output from the recorded result', () => {
    const lines = mapAll([
      {
        type: 'toolStarted',
        toolUseId: 'u1',
        toolName: 'Bash',
        title: 'npm test',
        input: { command: 'npm test' },
      },
      {
        type: 'toolFinished',
        toolUseId: 'u1',
        toolName: 'Bash',
        status: 'error',
        durationMs: 12,
        summary: 'exit 1',
      },
      {
        type: 'messageRecorded',
        message: {
          id: 'm3',
          role: 'user',
          content: [
            {
              type: 'tool_result',
              toolUseId: 'u1',
              isError: true,
              content: [{ type: 'text', text: '1 failing' }],
            },
          ],
        },
      },
    ])
    expect(lines[1]).toEqual({
      type: 'tool_result',
      session_id: 's1',
      tool_use_id: 'u1',
      name: 'Bash',
      status: 'error',
      duration_ms: 12,
      is_error: true,
      output: '1 failing',
      summary: 'exit 1',
    })
  })

  it("a tool result's text parts are on their own lines: diagnostics are not glued onto the snippet", () => {
    const lines = mapAll([
      {
        type: 'toolFinished',
        toolUseId: 'u2',
        toolName: 'Edit',
        status: 'ok',
        durationMs: 3,
      },
      {
        type: 'messageRecorded',
        message: {
          id: 'm4',
          role: 'user',
          content: [
            {
              type: 'tool_result',
              toolUseId: 'u2',
              isError: false,
              content: [
                { type: 'text', text: 'The changed region now reads:\n     2\tconst x: number = "a"' },
                { type: 'text', text: 'typescript reports 1 error in a.ts:\na.ts:2:7 error: Type mismatch' },
              ],
            },
          ],
        },
      },
    ])
    expect(lines[0]).toMatchObject({
      type: 'tool_result',
      output:
        'The changed region now reads:\n     2\tconst x: number = "a"\ntypescript reports 1 error in a.ts:\na.ts:2:7 error: Type mismatch',
    })
  })
})
