import { afterEach, describe, expect, it } from 'vitest'
import { type ScriptedServer, startScriptedServer } from './scripted-server.js'

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const post = async (path: string, body: object): Promise<Response> =>
  fetch(`${server?.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

describe('scripted server', () => {
  const response = {
    blocks: [
      { type: 'text' as const, text: 'hi' },
      { type: 'tool_use' as const, id: 'call_1', name: 'Read', input: { path: 'a' } },
    ],
    usage: { inputTokens: 5, outputTokens: 2, cacheReadTokens: 1 },
  }

  it('answers non-streaming requests with one JSON body in each format', async () => {
    server = await startScriptedServer([response, response, response])
    const anthropic = await (await post('/v1/messages', { model: 'm', stream: false })).json()
    expect(anthropic).toMatchObject({
      type: 'message',
      content: [
        { type: 'text', text: 'hi' },
        { type: 'tool_use', id: 'call_1', input: { path: 'a' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 5, cache_read_input_tokens: 1 },
    })
    const chat = await (await post('/v1/chat/completions', { model: 'm' })).json()
    expect(chat).toMatchObject({
      object: 'chat.completion',
      choices: [
        {
          message: { content: 'hi', tool_calls: [{ id: 'call_1', function: { arguments: '{"path":"a"}' } }] },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 6, prompt_tokens_details: { cached_tokens: 1 } },
    })
    const responses = await (await post('/v1/responses', { model: 'm' })).json()
    expect(responses).toMatchObject({
      object: 'response',
      status: 'completed',
      output: [{ type: 'message' }, { type: 'function_call', call_id: 'call_1' }],
    })
    expect(server.requests.map((recorded) => recorded.format)).toEqual([
      'anthropic',
      'openai-chat',
      'openai-responses',
    ])
  })

  it('serves a step a script function answers with later (a promise)', async () => {
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    server = await startScriptedServer(async (recorded) => {
      await held
      return { blocks: [{ type: 'text', text: `held ${recorded.path}` }] }
    })
    const answer = post('/v1/messages', { model: 'm', stream: false }).then((reply) => reply.json())
    // The request is in and waiting on the script; nothing is sent until it answers.
    await expect.poll(() => server?.requests.length).toBe(1)
    release()
    expect(await answer).toMatchObject({ content: [{ type: 'text', text: 'held /v1/messages' }] })
  })

  it('says when the script has run out, in the provider error shape', async () => {
    server = await startScriptedServer([])
    const reply = await post('/v1/messages', { model: 'm', stream: true })
    expect(reply.status).toBe(400)
    expect(await reply.json()).toMatchObject({
      type: 'error',
      error: { message: expect.stringContaining('no step 1') },
    })
    expect((await post('/v1/nowhere', {})).status).toBe(404)
  })

  it('streams SSE frames with event names for Anthropic and [DONE] for chat', async () => {
    server = await startScriptedServer([response, response])
    const anthropic = await (await post('/v1/messages', { model: 'm', stream: true })).text()
    expect(anthropic.startsWith('event: message_start\ndata: {')).toBe(true)
    expect(anthropic.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true)
    const chat = await (await post('/v1/chat/completions', { model: 'm', stream: true })).text()
    expect(chat.endsWith('data: [DONE]\n\n')).toBe(true)
  })
})
