/**
 * Client-owned tools of every type (Codex's freeform `apply_patch`, namespaces, client tool search,
 * local shell, computer use, types that do not exist yet) pass to the upstream as declared and their
 * calls come back to the client, stored and `store: false`; on a Chat upstream they are mapped to
 * functions and back.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { customCallStep } from './custom-call-step.js'
import { type Stack, startStack, text } from './harness.js'

let stack: Stack | undefined
afterEach(async () => {
  await stack?.close()
  stack = undefined
})

const PATCH =
  '*** Begin Patch\n*** Update File: add.js\n@@\n-  return a - b\n+  return a + b\n*** End Patch\n'
const applyPatch = {
  type: 'custom',
  name: 'apply_patch',
  description: 'Edit files with a patch.',
  format: { type: 'grammar', syntax: 'lark', definition: 'start: begin_patch hunk+ end_patch' },
}
const namespace = {
  type: 'namespace',
  name: 'crm',
  description: 'Customer records.',
  tools: [
    {
      type: 'function',
      name: 'lookup',
      description: 'Find a customer.',
      parameters: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] },
    },
  ],
}
const toolSearch = {
  type: 'tool_search',
  execution: 'client',
  description: 'Find deferred tools.',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
}
const localShell = { type: 'local_shell' }
const computer = {
  type: 'computer_use_preview',
  display_width: 1024,
  display_height: 768,
  environment: 'linux',
}
const future = { type: 'hologram_2031', fidelity: 'max' }
const webSearch = { type: 'web_search', external_web_access: true }
const ALL = [applyPatch, namespace, toolSearch, localShell, computer, future, webSearch]
/** The fields Codex sends beside its tools; the gateway passes them unchanged. */
const CODEX_FIELDS = {
  include: ['reasoning.encrypted_content'],
  reasoning: { effort: 'medium', summary: 'auto' },
  prompt_cache_key: 'thread-1',
  text: { verbosity: 'low' },
  parallel_tool_calls: true,
  service_tier: 'flex',
}

interface Final {
  id: string
  status: string
  output: Array<Record<string, unknown>>
}

async function create(body: Record<string, unknown>, streamed: boolean): Promise<Final> {
  if (!streamed) return (await stack!.client.responses.create({ ...body, stream: false } as never)) as never
  const stream = await stack!.client.responses.create({ ...body, stream: true } as never)
  let final: Final | undefined
  const types: string[] = []
  for await (const event of stream as unknown as AsyncIterable<{ type: string; response?: Final }>) {
    types.push(event.type)
    if (event.type === 'response.completed') final = event.response
  }
  if (final?.output.some((item) => item.type === 'custom_tool_call'))
    expect(types).toContain('response.custom_tool_call_input.delta')
  return final as Final
}

describe('client-owned tools on a Responses upstream', () => {
  it.each([false, true])(
    'pass every type through and round-trip a custom tool call in a stored chain (stream: %s)',
    async (streamed) => {
      stack = await startStack((request, index) =>
        index === 0
          ? customCallStep(request, { callId: 'call_p1', name: 'apply_patch', input: PATCH })
          : text('Patched.'),
      )
      const first = await create({ model: 'm', input: 'Fix add.js', tools: ALL, ...CODEX_FIELDS }, streamed)
      expect(first.status).toBe('completed')
      expect(first.output).toEqual([
        {
          id: expect.stringMatching(/^ctc_/),
          type: 'custom_tool_call',
          status: 'completed',
          call_id: 'call_p1',
          name: 'apply_patch',
          input: PATCH,
        },
      ])
      const sent = stack.upstream.requests[0]?.body ?? {}
      expect(sent.tools).toEqual(ALL)
      for (const [key, value] of Object.entries(CODEX_FIELDS)) expect(sent[key]).toEqual(value)
      expect(sent.store).toBe(false)

      await expect(
        stack.client.responses.create({ model: 'm', input: 'no output', previous_response_id: first.id }),
      ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('custom_tool_call_output') })
      await expect(
        stack.client.responses.create({
          model: 'm',
          previous_response_id: first.id,
          input: [{ type: 'function_call_output', call_id: 'call_p1', output: 'wrong kind' }],
        }),
      ).rejects.toMatchObject({ status: 400, param: 'input[0].call_id' })

      const second = await create(
        {
          model: 'm',
          previous_response_id: first.id,
          tools: ALL,
          input: [{ type: 'custom_tool_call_output', call_id: 'call_p1', output: 'Done!' }],
          ...CODEX_FIELDS,
        },
        streamed,
      )
      expect(second.output[0]).toMatchObject({ type: 'message' })
      const replayed = stack.upstream.requests[1]?.body.input as Array<Record<string, unknown>>
      expect(replayed.map((item) => item.type)).toEqual([
        'message',
        'custom_tool_call',
        'custom_tool_call_output',
      ])
      expect(replayed[1]).toEqual({
        type: 'custom_tool_call',
        call_id: 'call_p1',
        name: 'apply_patch',
        input: PATCH,
      })
      expect((await stack.client.responses.retrieve(first.id)).output).toEqual(first.output)
    },
  )

  it('store: false with client tools of every type goes upstream byte for byte', async () => {
    stack = await startStack((request) =>
      customCallStep(request, { callId: 'call_p2', name: 'apply_patch', input: PATCH }),
    )
    const body = JSON.stringify({
      model: 'm',
      input: 'Fix add.js',
      tools: ALL,
      store: false,
      stream: true,
      ...CODEX_FIELDS,
    })
    const reply = await fetch(`${stack.gateway.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer test-key' },
      body,
    })
    expect(reply.status).toBe(200)
    const events = await reply.text()
    expect(events).toContain('"type":"response.custom_tool_call_input.delta"')
    expect(events).toContain('"id":"ctc_up_1"') // the upstream's own ids: nothing was rewritten
    expect(stack.upstream.requests[0]?.body).toEqual(JSON.parse(body))
  })
})

describe('client-owned tools on a Chat Completions upstream', () => {
  it.each([false, true])(
    'become functions and their calls come back as the declared items (stream: %s)',
    async (streamed) => {
      stack = await startStack(
        [
          { blocks: [{ type: 'tool_use', id: 'call_c1', name: 'apply_patch', input: { input: PATCH } }] },
          { blocks: [{ type: 'tool_use', id: 'call_c2', name: 'crm__lookup', input: { id: 7 } }] },
          { blocks: [{ type: 'tool_use', id: 'call_c3', name: 'tool_search', input: { query: 'billing' } }] },
          {
            blocks: [
              { type: 'tool_use', id: 'call_c4', name: 'local_shell', input: { command: ['ls', '-a'] } },
            ],
          },
          text('All done.'),
        ],
        { config: { upstreamApi: 'chat' } },
      )
      const tools = [applyPatch, namespace, toolSearch, localShell]
      const first = await create({ model: 'm', input: 'Fix add.js', tools }, streamed)
      expect(first.output).toEqual([
        {
          id: expect.stringMatching(/^ctc_/),
          type: 'custom_tool_call',
          call_id: 'call_c1',
          name: 'apply_patch',
          input: PATCH,
        },
      ])
      const chatTools = stack.upstream.requests[0]?.body.tools as Array<{ function: Record<string, unknown> }>
      expect(chatTools.map((tool) => tool.function.name)).toEqual([
        'apply_patch',
        'crm__lookup',
        'tool_search',
        'local_shell',
      ])
      expect(chatTools[0]?.function).toMatchObject({
        parameters: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
        description: expect.stringContaining('start: begin_patch hunk+ end_patch'),
      })

      const second = await create(
        {
          model: 'm',
          previous_response_id: first.id,
          tools,
          input: [{ type: 'custom_tool_call_output', call_id: 'call_c1', output: 'Patched.' }],
        },
        streamed,
      )
      const messages = stack.upstream.requests[1]?.body.messages as Array<Record<string, unknown>>
      expect(messages.slice(1)).toEqual([
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_c1',
              type: 'function',
              function: { name: 'apply_patch', arguments: JSON.stringify({ input: PATCH }) },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_c1', content: 'Patched.' },
      ])
      expect(second.output).toMatchObject([
        {
          type: 'function_call',
          call_id: 'call_c2',
          name: 'lookup',
          namespace: 'crm',
          arguments: '{"id":7}',
        },
      ])

      const third = await create(
        {
          model: 'm',
          previous_response_id: second.id,
          tools,
          input: [{ type: 'function_call_output', call_id: 'call_c2', output: '{"name":"Ada"}' }],
        },
        streamed,
      )
      expect(third.output).toMatchObject([
        {
          type: 'tool_search_call',
          call_id: 'call_c3',
          execution: 'client',
          arguments: { query: 'billing' },
        },
      ])
      const loaded = { type: 'function', name: 'refund', parameters: { type: 'object', properties: {} } }
      const fourth = await create(
        {
          model: 'm',
          previous_response_id: third.id,
          tools,
          input: [{ type: 'tool_search_output', call_id: 'call_c3', execution: 'client', tools: [loaded] }],
        },
        streamed,
      )
      // A tool the search loaded is declared from then on.
      const fourthTools = stack.upstream.requests[3]?.body.tools as Array<{ function: { name: string } }>
      expect(fourthTools.map((tool) => tool.function.name)).toContain('refund')
      expect(fourth.output).toMatchObject([
        { type: 'local_shell_call', call_id: 'call_c4', action: { type: 'exec', command: ['ls', '-a'] } },
      ])
    },
  )

  it('refuses by name a tool a Chat upstream cannot be told about', async () => {
    stack = await startStack([text('unused')], { config: { upstreamApi: 'chat' } })
    for (const tool of [computer, webSearch, future])
      await expect(
        stack.client.responses.create({ model: 'm', input: 'x', tools: [applyPatch, tool] } as never),
      ).rejects.toMatchObject({
        status: 400,
        code: 'unsupported_tool',
        param: 'tools[1].type',
        message: expect.stringContaining(String(tool.type)),
      })
    expect(stack.upstream.requests).toHaveLength(0)
  })
})
