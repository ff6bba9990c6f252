import { afterEach, describe, expect, it } from 'vitest'
import { type ScriptedServer, type ServerScript, startScriptedServer } from '../../testing.js'
import { collectStream } from '../collect.js'
import type { ModelRequest, StreamEvent } from '../types.js'
import { createAnthropicClient } from './client.js'

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const noSleep = { sleep: async () => {}, random: () => 0.5 }

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'claude-haiku-4-5',
    system: [
      { text: 'base prompt', cacheable: true },
      { text: 'environment', cacheable: true },
      { text: 'worktree note', cacheable: false },
    ],
    tools: [
      { name: 'Read', description: 'read a file', inputSchema: { type: 'object' } },
      { name: 'Bash', description: 'run a command', inputSchema: { type: 'object' } },
    ],
    messages: [{ id: 'm1', role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    maxOutputTokens: 4096,
    ...overrides,
  }
}

async function start(script: ServerScript, options = {}) {
  server = await startScriptedServer(script, options)
  return createAnthropicClient({ apiKey: 'test-key', baseUrl: server.url, retry: noSleep })
}

describe('Anthropic client against the scripted server', () => {
  it('streams plain text with usage including cache tokens', async () => {
    const client = await start([
      {
        blocks: [{ type: 'text', text: 'Hello there, this is a longer answer split across deltas.' }],
        usage: { inputTokens: 12, outputTokens: 30, cacheReadTokens: 1000, cacheWriteTokens: 200 },
      },
    ])
    const events: StreamEvent[] = []
    const result = await collectStream(client.stream(request()), (event) => events.push(event))
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.content).toEqual([
      { type: 'text', text: 'Hello there, this is a longer answer split across deltas.' },
    ])
    expect(result.stopReason).toBe('end_turn')
    expect(result.usage).toEqual({
      inputTokens: 12,
      outputTokens: 30,
      cacheReadTokens: 1000,
      cacheWriteTokens: 200,
    })
    expect(events.filter((event) => event.type === 'text_delta').length).toBeGreaterThan(2)
    expect(server?.requests[0]?.headers.authorization).toBe('Bearer test-key')
  })

  it('places cache breakpoints on the last cacheable system section, the last tool and the last two user messages', async () => {
    const client = await start([{ blocks: [{ type: 'text', text: 'ok' }] }])
    await collectStream(
      client.stream(
        request({
          messages: [
            { id: '1', role: 'user', content: [{ type: 'text', text: 'first' }] },
            {
              id: '2',
              role: 'assistant',
              content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { path: 'a' } }],
            },
            {
              id: '3',
              role: 'user',
              content: [
                {
                  type: 'tool_result',
                  toolUseId: 't1',
                  content: [{ type: 'text', text: 'file' }],
                  isError: true,
                },
              ],
            },
            { id: '4', role: 'assistant', content: [{ type: 'text', text: 'more' }] },
            {
              id: '4b',
              role: 'assistant',
              content: [{ type: 'thinking', thinking: 'from another provider' }],
            },
            {
              id: '5',
              role: 'user',
              content: [
                { type: 'text', text: 'look' },
                { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
              ],
            },
          ],
        }),
      ),
    )
    const body = server?.requests[0]?.body as {
      system: Array<{ text: string; cache_control?: unknown }>
      tools: Array<{ name: string; cache_control?: unknown }>
      messages: Array<{ role: string; content: Array<Record<string, unknown>> }>
    }
    expect(body.system.map((section) => section.cache_control !== undefined)).toEqual([false, true, false])
    expect(body.tools.map((tool) => tool.cache_control !== undefined)).toEqual([false, true])
    const marked = body.messages.map((message) =>
      message.content.some((block) => block.cache_control !== undefined),
    )
    expect(marked).toEqual([false, false, true, false, true])
    expect(JSON.stringify(body).match(/cache_control/g)?.length).toBe(4)
    expect(body.messages[2]?.content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 't1',
      is_error: true,
    })
    expect(body.messages[4]?.content[1]).toMatchObject({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
    })
  })

  it('assembles three parallel tool calls whose arguments arrive in many chunks', async () => {
    const inputs = [
      { path: 'src/a.ts', limit: 200 },
      { command: 'ls -la && echo "done"' },
      { pattern: 'TODO', glob: '**/*.ts', nested: { deep: [1, 2, 3] } },
    ]
    const client = await start([
      {
        blocks: [
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', id: 'toolu_a', name: 'Read', input: inputs[0] as Record<string, unknown> },
          { type: 'tool_use', id: 'toolu_b', name: 'Bash', input: inputs[1] as Record<string, unknown> },
          { type: 'tool_use', id: 'toolu_c', name: 'Grep', input: inputs[2] as Record<string, unknown> },
        ],
      },
    ])
    const events: StreamEvent[] = []
    const result = await collectStream(client.stream(request()), (event) => events.push(event))
    expect(result.ok && result.stopReason).toBe('tool_use')
    if (!result.ok) return
    expect(result.content.slice(1)).toEqual([
      { type: 'tool_use', id: 'toolu_a', name: 'Read', input: inputs[0] },
      { type: 'tool_use', id: 'toolu_b', name: 'Bash', input: inputs[1] },
      { type: 'tool_use', id: 'toolu_c', name: 'Grep', input: inputs[2] },
    ])
    expect(events.filter((event) => event.type === 'tool_call_args_delta').length).toBeGreaterThan(10)
  })

  it('reports malformed tool JSON as a parse error, not a throw', async () => {
    const client = await start([
      { blocks: [{ type: 'tool_use', id: 'toolu_x', name: 'Read', input: '{"path": "a' }] },
    ])
    const result = await collectStream(client.stream(request()))
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.content).toEqual([{ type: 'tool_use', id: 'toolu_x', name: 'Read', input: {} }])
    expect(result.toolCallErrors).toHaveLength(1)
    expect(result.toolCallErrors[0]?.message).toMatch(/not valid JSON/)
  })

  it('round-trips thinking and redacted thinking with their signatures', async () => {
    const client = await start([
      {
        blocks: [
          {
            type: 'thinking',
            thinking: 'I should read the file first.',
            signature: 'EqQBCgIYAhIM-signature==',
          },
          { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
          { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a.ts' } },
        ],
      },
      { blocks: [{ type: 'text', text: 'done' }] },
      { blocks: [{ type: 'text', text: 'forced' }] },
    ])
    const first = await collectStream(client.stream(request({ reasoning: { effort: 'medium' } })))
    expect(first.ok).toBe(true)
    if (!first.ok) return
    expect(first.content[0]).toEqual({
      type: 'thinking',
      thinking: 'I should read the file first.',
      signature: 'EqQBCgIYAhIM-signature==',
    })
    expect(first.content[1]).toEqual({ type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' })
    const second = request({
      reasoning: { effort: 'medium' },
      messages: [
        { id: '1', role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { id: '2', role: 'assistant', content: first.content },
        {
          id: '3',
          role: 'user',
          content: [
            {
              type: 'tool_result',
              toolUseId: 'toolu_1',
              content: [{ type: 'text', text: 'x' }],
              isError: false,
            },
          ],
        },
      ],
    })
    await collectStream(client.stream(second))
    const sent = server?.requests[1]?.body as { thinking: unknown; messages: Array<{ content: unknown[] }> }
    expect(sent.thinking).toEqual({ type: 'enabled', budget_tokens: 4095 })
    await collectStream(client.stream({ ...second, toolChoice: { type: 'tool', name: 'Read' } }))
    const forced = server?.requests[2]?.body as Record<string, unknown>
    expect(forced.thinking).toBeUndefined()
    expect(forced.tool_choice).toEqual({ type: 'tool', name: 'Read' })
    expect(sent.messages[1]?.content.slice(0, 2)).toEqual([
      { type: 'thinking', thinking: 'I should read the file first.', signature: 'EqQBCgIYAhIM-signature==' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
    ])
  })
})
