import { describe, expect, it } from 'vitest'
import { collectStream } from '../collect.js'
import type { ModelRequest, StreamEvent } from '../types.js'
import { parseScript } from './script.js'
import { ScriptedClient } from './scripted-client.js'

const request = (text: string): ModelRequest => ({
  model: 'scripted',
  system: [],
  tools: [],
  messages: [{ id: 'u', role: 'user', content: [{ type: 'text', text }] }],
  maxOutputTokens: 100,
})

describe('ScriptedClient', () => {
  it('answers from a list in order and records each request', async () => {
    const client = new ScriptedClient([
      {
        blocks: [
          { type: 'thinking', thinking: 'hmm', signature: 's1' },
          { type: 'tool_use', id: 't1', name: 'Read', input: { path: 'a' } },
        ],
      },
      { blocks: [{ type: 'text', text: 'done' }], usage: { inputTokens: 7, outputTokens: 3 } },
    ])
    const first = await collectStream(client.stream(request('one')))
    expect(first).toMatchObject({
      ok: true,
      stopReason: 'tool_use',
      content: [
        { type: 'thinking', thinking: 'hmm', signature: 's1' },
        { type: 'tool_use', id: 't1', name: 'Read', input: { path: 'a' } },
      ],
    })
    const second = await collectStream(client.stream(request('two')))
    expect(second).toMatchObject({
      ok: true,
      stopReason: 'end_turn',
      usage: { inputTokens: 7, outputTokens: 3 },
    })
    expect(client.requests.map((sent) => sent.messages[0]?.content[0])).toEqual([
      { type: 'text', text: 'one' },
      { type: 'text', text: 'two' },
    ])
    expect(client.remaining).toBe(0)
    const third = await collectStream(client.stream(request('three')))
    expect(third).toMatchObject({
      ok: false,
      error: { kind: 'invalid_request', message: expect.stringContaining('request 3') },
    })
  })

  it('answers from a function of the request, and passes scripted errors through typed', async () => {
    const client = new ScriptedClient((sent, index) =>
      index === 0
        ? { error: { kind: 'context_overflow', message: 'too long' } }
        : { blocks: [{ type: 'text', text: `echo ${JSON.stringify(sent.messages[0]?.content[0])}` }] },
    )
    expect(await collectStream(client.stream(request('x')))).toEqual({
      ok: false,
      retries: 0,
      error: { kind: 'context_overflow', message: 'too long' },
    })
    expect(await collectStream(client.stream(request('y')))).toMatchObject({
      ok: true,
      content: [{ type: 'text', text: 'echo {"type":"text","text":"y"}' }],
    })
  })

  it('streams deltas and reports malformed tool arguments without throwing', async () => {
    const client = new ScriptedClient(
      [{ blocks: [{ type: 'tool_use', name: 'Bash', input: '{"command": [' }] }],
      { chunkSize: 3 },
    )
    const events: StreamEvent[] = []
    const result = await collectStream(client.stream(request('x')), (event) => events.push(event))
    expect(events.filter((event) => event.type === 'tool_call_args_delta')).toHaveLength(5)
    expect(result).toMatchObject({
      ok: true,
      content: [{ type: 'tool_use', name: 'Bash', input: {} }],
      toolCallErrors: [{ name: 'Bash', argsText: '{"command": [' }],
    })
  })

  it('stops with aborted when the signal fires mid-stream', async () => {
    const client = new ScriptedClient([{ blocks: [{ type: 'text', text: 'x'.repeat(400) }] }], {
      chunkSize: 4,
      delayMs: 2,
    })
    const controller = new AbortController()
    const events: StreamEvent[] = []
    for await (const event of client.stream(request('x'), controller.signal)) {
      events.push(event)
      if (event.type === 'text_delta') controller.abort()
    }
    expect(events.at(-1)).toEqual({
      type: 'error',
      error: { kind: 'aborted', message: 'The request was cancelled.' },
    })
    expect(events.filter((event) => event.type === 'text_delta')).toHaveLength(1)
  })
})

describe('parseScript', () => {
  it('reads JSON arrays and JSONL with comments', () => {
    expect(parseScript('[{"blocks":[{"type":"text","text":"a"}]}]')).toMatchObject({
      ok: true,
      steps: [{ blocks: [{ text: 'a' }] }],
    })
    const jsonl =
      '// first\n{"blocks":[{"type":"text","text":"a"}]}\n\n{"error":{"kind":"overloaded","message":"m"}}\n'
    expect(parseScript(jsonl)).toMatchObject({
      ok: true,
      steps: [{ blocks: [{ text: 'a' }] }, { error: { kind: 'overloaded' } }],
    })
  })

  it.each([
    ['{"blocks": [', /line 1 is not valid JSON/],
    ['[1]', /step 1: expected an object/],
    ['{"blocks":[{"type":"image"}]}', /step 1: block 1: unknown block type "image"/],
    ['{"blocks":[{"type":"tool_use","input":{}}]}', /needs "name"/],
    ['{"error":{"kind":"nope"}}', /"error" needs a "kind"/],
    ['{"nothing": true}', /expected "blocks"/],
  ])('rejects %s with a message that says what to fix', (text, pattern) => {
    const parsed = parseScript(text)
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.error).toMatch(pattern)
  })
})
