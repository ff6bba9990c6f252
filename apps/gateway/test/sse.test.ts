import { describe, expect, it } from 'vitest'
import { RetainedBudget } from '../src/executor/budget.js'
import { SseDecoder, type SseMessage } from '../src/sse/parse-sse.js'
import { RoundAccumulator } from '../src/sse/round-accumulator.js'
import { parseUpstreamEvent, type UpstreamEvent } from '../src/sse/upstream-event.js'

function decodeAll(pieces: Uint8Array[], max = 1 << 20): SseMessage[] {
  const decoder = new SseDecoder(max)
  const out: SseMessage[] = []
  for (const piece of pieces) {
    const fed = decoder.push(piece)
    if (!fed.ok) throw new Error(fed.reason)
    out.push(...fed.messages)
  }
  return [...out, ...decoder.end()]
}

describe('SseDecoder', () => {
  const text =
    ': keepalive\r\nevent: a\r\ndata: {"x":"é€😀"}\r\n\r\ndata: line1\ndata:line2\n\nid: 7\rdata: [DONE]\r\r'
  const expected: SseMessage[] = [
    { kind: 'event', event: 'a', data: '{"x":"é€😀"}' },
    { kind: 'event', event: null, data: 'line1\nline2' },
    { kind: 'done' },
  ]

  it('decodes CRLF, LF and CR endings, comments, multi-line data and [DONE]', () => {
    expect(decodeAll([Buffer.from(text)])).toEqual(expected)
  })

  it('gives the same events however the bytes are split (UTF-8 and CRLF across chunks)', () => {
    const bytes = Buffer.from(text)
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(decodeAll([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(expected)
    }
    expect(decodeAll([...bytes].map((byte) => Uint8Array.of(byte)))).toEqual(expected)
  })

  it('refuses a line longer than the ceiling instead of buffering it', () => {
    const decoder = new SseDecoder(16)
    expect(decoder.push(Buffer.from('data: 0123456789'))).toEqual({ ok: true, messages: [] })
    expect(decoder.push(Buffer.from('0123456789'))).toEqual({ ok: false, reason: 'line_too_long', limit: 16 })
    expect(new SseDecoder(16).push(Buffer.from('data: 0123456789abcdef\n\n'))).toMatchObject({ ok: false })
  })

  it('dispatches a final event that lacks its blank line at end of stream', () => {
    expect(decodeAll([Buffer.from('data: {"a":1}')])).toEqual([
      { kind: 'event', event: null, data: '{"a":1}' },
    ])
  })
})

const ev = (payload: Record<string, unknown>): UpstreamEvent => {
  const parsed = parseUpstreamEvent(JSON.stringify(payload), null)
  if (!parsed) throw new Error('bad event')
  return parsed
}

const message = { id: 'up_msg', type: 'message', role: 'assistant', status: 'in_progress', content: [] }
const happy: Record<string, unknown>[] = [
  { type: 'response.created', response: { id: 'up', status: 'in_progress' } },
  { type: 'response.in_progress', response: { id: 'up', status: 'in_progress' } },
  { type: 'response.output_item.added', output_index: 0, item: message },
  {
    type: 'response.content_part.added',
    output_index: 0,
    item_id: 'up_msg',
    content_index: 0,
    part: { type: 'output_text', text: '' },
  },
  { type: 'response.output_text.delta', output_index: 0, item_id: 'up_msg', content_index: 0, delta: 'Hel' },
  { type: 'response.output_text.delta', output_index: 0, item_id: 'up_msg', content_index: 0, delta: 'lo' },
  {
    type: 'response.output_item.done',
    output_index: 0,
    item: { ...message, status: 'completed', custom_field: 1 },
  },
  {
    type: 'response.completed',
    response: { id: 'up', status: 'completed', usage: { input_tokens: 3, output_tokens: 2 } },
  },
]

function run(events: Array<Record<string, unknown> | undefined>, budget = 1 << 20) {
  const accumulator = new RoundAccumulator(new RetainedBudget(budget))
  for (const event of events) {
    const result = accumulator.push(ev(event ?? {}))
    if (result.kind === 'stop') return result.outcome
  }
  return accumulator.end()
}

describe('RoundAccumulator', () => {
  it('folds deltas into items and keeps unknown fields of the done item', () => {
    const outcome = run(happy)
    expect(outcome.status).toBe('completed')
    expect(outcome.output).toEqual([
      {
        ...message,
        status: 'completed',
        custom_field: 1,
        content: [{ type: 'output_text', text: 'Hello' }],
      },
    ])
    expect(outcome.usage).toEqual({ input_tokens: 3, output_tokens: 2 })
  })

  it("reads vLLM's response.done as completed", () => {
    const events = happy.map((event) =>
      event.type === 'response.completed' ? { ...event, type: 'response.done' } : event,
    )
    expect(run(events).status).toBe('completed')
  })

  it.each([
    ['a delta before response.created', [happy[2]], /before 'response.created'/],
    ['a delta for an index never added', [happy[0], { ...happy[4], output_index: 3 }], /never added/],
    [
      'a delta naming another item',
      [happy[0], happy[2], { ...happy[4], item_id: 'other' }],
      /names item 'other'/,
    ],
    ['an index added twice', [happy[0], happy[2], happy[2]], /added twice/],
    ['a delta after done', [happy[0], happy[2], happy[6], happy[4]], /already done/],
    ['completed with an open item', [happy[0], happy[2], happy[7]], /still open/],
    ['an event after the terminal one', [...happy, happy[4]], /after the terminal event/],
    [
      'done with another item type',
      [happy[0], happy[2], { ...happy[6], item: { type: 'function_call' } }],
      /does not carry/,
    ],
  ])('fails on %s', (_name, events, message) => {
    const outcome = run(events)
    expect(outcome.status).toBe('failed')
    expect(outcome.error?.message).toMatch(message)
  })

  it('fails a stream that ends before its terminal event', () => {
    expect(run(happy.slice(0, 5)).error?.code).toBe('upstream_stream_truncated')
  })

  it('passes an upstream error event on as a failure', () => {
    expect(run([happy[0], { type: 'error', code: 'overloaded', message: 'busy' }]).error).toEqual({
      code: 'overloaded',
      message: 'busy',
    })
  })

  it('ends incomplete when the retained-bytes budget is spent', () => {
    const outcome = run(happy, 120)
    expect(outcome.status).toBe('incomplete')
    expect(outcome.incompleteReason).toBe('max_retained_bytes')
  })

  it('folds function-call arguments and reasoning summaries', () => {
    const call = { id: 'up_fc', type: 'function_call', call_id: 'c1', name: 'f', arguments: '' }
    const reasoning = { id: 'up_rs', type: 'reasoning', summary: [] }
    const outcome = run([
      happy[0],
      { type: 'response.output_item.added', output_index: 0, item: reasoning },
      {
        type: 'response.reasoning_summary_part.added',
        output_index: 0,
        item_id: 'up_rs',
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      },
      {
        type: 'response.reasoning_summary_text.delta',
        output_index: 0,
        item_id: 'up_rs',
        summary_index: 0,
        delta: 'think',
      },
      { type: 'response.output_item.done', output_index: 0, item: { id: 'up_rs', type: 'reasoning' } },
      { type: 'response.output_item.added', output_index: 1, item: call },
      { type: 'response.function_call_arguments.delta', output_index: 1, item_id: 'up_fc', delta: '{"a"' },
      { type: 'response.function_call_arguments.delta', output_index: 1, item_id: 'up_fc', delta: ':1}' },
      { type: 'response.output_item.done', output_index: 1, item: { ...call, arguments: undefined } },
      happy[7],
    ])
    expect(outcome.output).toEqual([
      { id: 'up_rs', type: 'reasoning', summary: [{ type: 'summary_text', text: 'think' }] },
      { ...call, arguments: '{"a":1}' },
    ])
  })
})
