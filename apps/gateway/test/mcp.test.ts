/** Gateway-owned MCP tools against the real server-everything over Streamable HTTP. */
import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import Anthropic from '@anthropic-ai/sdk'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type Stack, startStack, text } from './harness.js'

let mcp: ChildProcess | undefined
let mcpUrl = ''
let stack: Stack | undefined

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

beforeAll(async () => {
  const port = await freePort()
  const entry = createRequire(import.meta.url).resolve(
    '@modelcontextprotocol/server-everything/dist/index.js',
  )
  mcp = spawn(process.execPath, [entry, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  await new Promise<void>((resolve, reject) => {
    let log = ''
    const timer = setTimeout(() => reject(new Error(`server-everything did not start: ${log}`)), 20_000)
    mcp?.stderr?.on('data', (chunk) => {
      log += String(chunk)
      if (log.includes('listening on port')) {
        clearTimeout(timer)
        resolve()
      }
    })
  })
  mcpUrl = `http://127.0.0.1:${port}/mcp`
})
afterAll(() => {
  mcp?.kill()
})
afterEach(async () => {
  await stack?.close()
  stack = undefined
})

const mcpTool = () => ({
  type: 'mcp' as const,
  server_label: 'everything',
  server_url: mcpUrl,
  require_approval: 'never' as const,
  allowed_tools: ['echo', 'get-sum'],
})
const echo = (message: string, id = 'call_echo') => ({
  type: 'tool_use' as const,
  id,
  name: 'everything__echo',
  input: { message },
})

describe('gateway-owned MCP tools', () => {
  it.each([false, true])(
    'run in the gateway and show as mcp_list_tools and mcp_call (stream: %s)',
    async (streamed) => {
      stack = await startStack([{ blocks: [echo('hi there')] }, text('The server echoed it.')], {
        config: { mcpServerUrls: [mcpUrl] },
      })
      const body = { model: 'm', input: 'echo hi there', tools: [mcpTool()] }
      let response: { id: string; status?: string; output: Array<Record<string, unknown>> }
      const types: string[] = []
      if (streamed) {
        const stream = await stack.client.responses.create({ ...body, stream: true })
        let final: typeof response | undefined
        for await (const event of stream) {
          types.push(event.type)
          if (event.type === 'response.completed') final = event.response as unknown as typeof response
        }
        response = final as typeof response
      } else response = (await stack.client.responses.create(body)) as unknown as typeof response
      expect(response.status).toBe('completed')
      expect(response.output.map((item) => item.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message'])
      expect(
        ((response.output[0]?.tools ?? []) as Array<{ name: string }>).map((tool) => tool.name).sort(),
      ).toEqual(['echo', 'get-sum'])
      expect(response.output[1]).toMatchObject({
        type: 'mcp_call',
        server_label: 'everything',
        name: 'echo',
        arguments: '{"message":"hi there"}',
        error: null,
      })
      expect(String(response.output[1]?.output)).toContain('hi there')
      // The model saw functions, then its own call and the tool's output, never the public items.
      const first = stack.upstream.requests[0]?.body.tools as Array<{ type: string; name: string }>
      expect(first.map((tool) => `${tool.type}:${tool.name}`).sort()).toEqual([
        'function:everything__echo',
        'function:everything__get-sum',
      ])
      const second = stack.upstream.requests[1]?.body.input as Array<Record<string, unknown>>
      expect(second.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call_output'])
      expect(String(second[2]?.output)).toContain('hi there')
      if (streamed) {
        expect(types).toEqual(
          expect.arrayContaining([
            'response.mcp_list_tools.completed',
            'response.mcp_call.in_progress',
            'response.mcp_call.completed',
          ]),
        )
        expect(types.indexOf('response.mcp_call.completed')).toBeLessThan(
          types.indexOf('response.output_text.delta'),
        )
      }
      // A continuation replays the canonical call and output, not the public projection.
      const stored = await stack.client.responses.retrieve(response.id)
      expect(stored.output.map((item) => item.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message'])
    },
  )

  it('admits at most max_tool_calls calls and stops after maxRounds', async () => {
    stack = await startStack(
      [
        { blocks: [echo('one', 'c1'), echo('two', 'c2')] },
        text('two calls seen'),
        { blocks: [echo('again', 'c3')] },
        { blocks: [echo('again', 'c4')] },
      ],
      { config: { mcpServerUrls: [mcpUrl], limits: { maxRounds: 2 } } },
    )
    const limited = await stack.client.responses.create({
      model: 'm',
      input: 'x',
      tools: [mcpTool()],
      max_tool_calls: 1,
    } as never)
    expect(limited.output.filter((item) => item.type === 'mcp_call')).toHaveLength(1)
    const second = stack.upstream.requests[1]?.body as {
      input: Array<Record<string, unknown>>
      tools?: unknown[]
    }
    expect(
      second.input.filter((item) => item.type === 'function_call_output').map((item) => String(item.output)),
    ).toEqual([expect.stringContaining('one'), 'Not run: this response reached max_tool_calls (1).'])
    expect(second.tools).toBeUndefined()
    const looping = await stack.client.responses.create({ model: 'm', input: 'y', tools: [mcpTool()] })
    expect(looping.status).toBe('incomplete')
    expect(looping.incomplete_details?.reason).toBe('max_tool_rounds')
  })

  it('refuses servers the operator did not allow, and approvals it cannot ask for', async () => {
    stack = await startStack([], { config: { mcpServerUrls: [mcpUrl] } })
    await expect(
      stack.client.responses.create({
        model: 'm',
        input: 'x',
        tools: [{ ...mcpTool(), server_url: 'http://127.0.0.1:9/mcp' }],
      }),
    ).rejects.toMatchObject({ status: 400, code: 'mcp_server_not_allowed' })
    await expect(
      stack.client.responses.create({
        model: 'm',
        input: 'x',
        tools: [{ ...mcpTool(), require_approval: 'always' }],
      }),
    ).rejects.toMatchObject({ status: 400, code: 'mcp_approval_unsupported' })
    expect(stack.upstream.requests).toHaveLength(0)
  })
})

describe('MCP connector servers on the Messages API', () => {
  it.each([false, true])(
    'run declared mcp_servers in the gateway as mcp_tool_use / mcp_tool_result (stream: %s)',
    async (streamed) => {
      stack = await startStack([{ blocks: [echo('from messages')] }, text('Echoed.')], {
        config: { mcpServerUrls: [mcpUrl] },
      })
      const anthropic = new Anthropic({ apiKey: 'k', baseURL: stack.gateway.url, maxRetries: 0 })
      const ask = {
        model: 'm',
        max_tokens: 100,
        messages: [{ role: 'user' as const, content: 'echo' }],
        mcp_servers: [
          { type: 'url', url: mcpUrl, name: 'everything', tool_configuration: { allowed_tools: ['echo'] } },
        ],
      } as unknown as Anthropic.MessageCreateParamsNonStreaming
      const message = streamed
        ? await anthropic.messages.stream(ask).finalMessage()
        : await anthropic.messages.create(ask)
      expect(message.content.map((block) => block.type)).toEqual(['mcp_tool_use', 'mcp_tool_result', 'text'])
      expect(message.content[0]).toMatchObject({
        name: 'echo',
        server_name: 'everything',
        input: { message: 'from messages' },
      })
      expect(message.content[1]).toMatchObject({
        is_error: false,
        content: [{ type: 'text', text: expect.stringContaining('from messages') }],
      })
      const tools = stack.upstream.requests[0]?.body.tools as Array<{ name: string }>
      expect(tools.map((tool) => tool.name)).toEqual(['everything__echo'])
    },
  )

  it('refuses an MCP server the operator did not allow', async () => {
    stack = await startStack([text('unused')])
    const anthropic = new Anthropic({ apiKey: 'k', baseURL: stack.gateway.url, maxRetries: 0 })
    await expect(
      anthropic.messages.create({
        model: 'm',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'x' }],
        mcp_servers: [{ type: 'url', url: mcpUrl, name: 'everything' }],
      } as unknown as Anthropic.MessageCreateParamsNonStreaming),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('--mcp-allow') })
  })
})
