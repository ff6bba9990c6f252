/**
 * Issue 15 with real MCP servers: server-everything (npm) over stdio, streamable HTTP and SSE, and
 * our SDK-based fault server for crashes, hangs, slow starts, bad schemas and 60 tools.
 */

import { dirname, join } from 'node:path'
import { isProcessAlive } from '@z-engine/host'
import { afterEach, describe, expect, it } from 'vitest'
import { FAULT_SERVER, mcpTestCtx, npmServerEntry, startEverythingHttp } from './mcp.test-util.js'
import { McpManager, type McpManagerHooks } from './mcp-manager.js'
import type { McpServerSpec } from './server-spec.js'

const managers: McpManager[] = []
const stops: Array<() => void> = []
afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()))
  for (const stop of stops.splice(0)) stop()
})

function stdio(name: string, args: string[], extra: Partial<McpServerSpec> = {}): McpServerSpec {
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    args,
    env: {},
    cwd: process.cwd(),
    timeoutMs: 20_000,
    ...extra,
  } as McpServerSpec
}

function manager(specs: McpServerSpec[]): McpManager & { notices: string[]; reminders: string[] } {
  const notices: string[] = []
  const reminders: string[] = []
  const hooks: McpManagerHooks = {
    notice: (_level, message) => notices.push(message),
    remind: (text) => reminders.push(text),
  }
  const created = new McpManager({ specs, baseEnv: { PATH: process.env.PATH ?? '' }, hooks })
  managers.push(created)
  return Object.assign(created, { notices, reminders })
}

const signal = () => new AbortController().signal
const text = (result: { ok: boolean } & Record<string, unknown>) => JSON.stringify(result)

describe('McpManager with server-everything over stdio', () => {
  it('offers mcp__everything__* tools, calls echo, maps structured content, lists and reads resources, and kills the server on close', async () => {
    const mcp = manager([stdio('everything', [npmServerEntry('server-everything'), 'stdio'])])
    expect(mcp.tools()).toEqual([])
    mcp.start()
    await mcp.settled()
    const names = mcp.tools().map((tool) => tool.name)
    expect(names).toContain('mcp__everything__echo')
    expect(names).toContain('mcp__everything__get-sum')
    const echo = mcp.tools().find((tool) => tool.name === 'mcp__everything__echo')!
    expect(echo.inputSchema).toMatchObject({ type: 'object', required: ['message'] })
    expect(echo.inputSchema).not.toHaveProperty('$schema')
    expect(echo.action({ message: 'x' }, { projectRoot: '/', cwd: '/', home: '/' })).toEqual({
      type: 'mcpCall',
      server: 'everything',
      tool: 'echo',
      readOnly: true,
    })
    const ctx = mcpTestCtx()
    const result = await echo.call({ message: 'hello' }, ctx, signal())
    expect(result).toEqual({ ok: true, output: { content: [{ type: 'text', text: 'Echo: hello' }] } })

    const structured = mcp.tools().find((tool) => tool.name === 'mcp__everything__get-structured-content')!
    const weather = await structured.call({ location: 'New York' }, ctx, signal())
    expect(weather.ok && weather.output.details).toMatchObject({
      structuredContent: { temperature: expect.any(Number) },
    })

    const listed = await mcp.listResources(undefined, signal())
    expect(text(listed)).toContain('demo://resource/static/document/architecture.md')
    expect(text(listed)).toContain('template demo://resource/dynamic/text/{resourceId}')
    const read = await mcp.readResource('everything', 'demo://resource/dynamic/text/1', signal())
    expect(text(read)).toContain('Resource 1')

    expect(mcp.promptCommands().map((prompt) => prompt.prompt)).toContain('args-prompt')
    const prompt = await mcp.getPrompt('everything', 'args-prompt', { city: 'Paris' })
    expect(prompt).toContain('Paris')

    const [info] = mcp.servers()
    expect(info).toMatchObject({ name: 'everything', transport: 'stdio', status: 'ready' })
    expect(info!.toolCount).toBeGreaterThan(5)
    expect(info!.stderr).toContain('Starting')
    const pid = info!.pid!
    expect(isProcessAlive(pid)).toBe(true)
    await mcp.close()
    expect(isProcessAlive(pid)).toBe(false)
    expect(mcp.tools()).toEqual([])
  })
})

describe('McpManager over HTTP', () => {
  it.each(['streamableHttp', 'sse'] as const)(
    'connects to server-everything over %s and calls echo',
    async (mode) => {
      const server = await startEverythingHttp(mode)
      stops.push(server.stop)
      const spec: McpServerSpec = {
        name: 'web',
        transport: mode === 'sse' ? 'sse' : 'http',
        url: server.url,
        headers: { 'X-Test': 'yes' },
        timeoutMs: 20_000,
      }
      const mcp = manager([spec])
      mcp.start()
      await mcp.settled()
      expect(mcp.servers()[0]).toMatchObject({ status: 'ready', transport: spec.transport })
      const echo = mcp.tools().find((tool) => tool.name === 'mcp__web__echo')!
      expect(await echo.call({ message: 'over http' }, mcpTestCtx(), signal())).toMatchObject({
        ok: true,
        output: { content: [{ type: 'text', text: 'Echo: over http' }] },
      })
    },
    60_000,
  )
})

describe('McpManager faults (our SDK fault server)', () => {
  it('passes env and cwd, reports progress, maps isError to a failed result', async () => {
    const mcp = manager([
      stdio('fault', [FAULT_SERVER], { env: { FAULT_TOKEN: 'tok' }, cwd: '/tmp' } as Partial<McpServerSpec>),
    ])
    mcp.start()
    await mcp.settled()
    // Stderr is another pipe than the answers: what it said may arrive after the server is ready.
    await expect
      .poll(() => mcp.servers()[0]!.stderr, { timeout: 30_000 })
      .toContain('FAULT_TOKEN=tok cwd=/tmp')
    const tool = (name: string) => mcp.tools().find((candidate) => candidate.name === `mcp__fault__${name}`)!
    const ctx = mcpTestCtx()
    expect(await tool('progress').call({}, ctx, signal())).toMatchObject({ ok: true })
    expect(ctx.progressed).toEqual(['step 1', 'step 2', 'step 3'])
    expect(await tool('fail').call({}, ctx, signal())).toEqual({
      ok: false,
      error: { code: 'mcp_tool_error', message: 'it went wrong' },
    })
    // Not read-only without the hint: concurrency-unsafe and an ask in default mode.
    expect(tool('crash').isConcurrencySafe({})).toBe(false)
    expect(tool('echo').isConcurrencySafe({})).toBe(true)
  })

  it('reports every progress notification that arrives in the same read as the result', async () => {
    const burst = join(dirname(FAULT_SERVER), 'burst-server.mjs')
    const mcp = manager([stdio('burst', [burst])])
    mcp.start()
    await mcp.settled()
    const tool = mcp.tools().find((candidate) => candidate.name === 'mcp__burst__burst')!
    const ctx = mcpTestCtx()
    expect(await tool.call({}, ctx, signal())).toMatchObject({ ok: true })
    expect(ctx.progressed).toEqual(['step 1', 'step 2', 'step 3'])
  })

  it('a server that crashes mid-call yields one error result and a notice; its tools disappear; reconnect brings them back', async () => {
    const mcp = manager([stdio('fault', [FAULT_SERVER])])
    mcp.start()
    await mcp.settled()
    const crash = mcp.tools().find((tool) => tool.name === 'mcp__fault__crash')!
    const result = await crash.call({}, mcpTestCtx(), signal())
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error.message).toMatch(/MCP tool crash of fault failed: .*Connection closed/)
    expect(mcp.notices.join('\n')).toMatch(/MCP server fault stopped: .*\/mcp reconnect fault/)
    expect(mcp.tools()).toEqual([])
    expect(mcp.servers()[0]).toMatchObject({ status: 'failed' })
    const info = await mcp.reconnect('fault')
    expect(info).toMatchObject({ status: 'ready' })
    expect(mcp.tools().map((tool) => tool.name)).toContain('mcp__fault__echo')
  })

  it('cancelling a hanging call sends notifications/cancelled and returns at once', async () => {
    const mcp = manager([stdio('fault', [FAULT_SERVER])])
    mcp.start()
    await mcp.settled()
    const hang = mcp.tools().find((tool) => tool.name === 'mcp__fault__hang')!
    const controller = new AbortController()
    const pending = hang.call({}, mcpTestCtx(), controller.signal)
    // Cancelled once the server runs it: an abort before the request is even sent sends nothing.
    await expect.poll(() => mcp.servers()[0]!.stderr).toContain('hanging')
    controller.abort()
    expect(await pending).toMatchObject({ ok: false, error: { code: 'cancelled' } })
    await expect.poll(() => mcp.servers()[0]!.stderr, { timeout: 30_000 }).toContain('cancelled')
  })

  it('a server that does not start within timeout_ms fails with a clear error and is killed; a slow one within it works', async () => {
    const mcp = manager([
      stdio('stuck', [FAULT_SERVER, '--never-start'], { timeoutMs: 2_500 }),
      // A loaded machine may take many seconds to start Node: the slow one's limit leaves room for that.
      stdio('slow', [FAULT_SERVER, '--slow-start=300'], { timeoutMs: 60_000 }),
      stdio('missing', ['/no/such/server.js'], { timeoutMs: 60_000 }),
    ])
    mcp.start()
    // The stuck server fails at its own limit (its error names it), not the others'.
    await mcp.settled()
    const [stuck, slow, missing] = mcp.servers()
    expect(stuck).toMatchObject({
      status: 'failed',
      lastError: expect.stringContaining('did not start within 2500 ms'),
    })
    expect(stuck!.pid).toBeGreaterThan(0)
    expect(isProcessAlive(stuck!.pid!)).toBe(false)
    expect(slow).toMatchObject({ status: 'ready' })
    expect(missing).toMatchObject({ status: 'failed' })
    expect(missing!.lastError).toMatch(/Cannot find module|Connection closed/)
    expect(mcp.notices.filter((notice) => notice.includes('unavailable'))).toHaveLength(2)
  })

  it('leaves out a tool whose schema does not compile, with a notice', async () => {
    const mcp = manager([stdio('fault', [FAULT_SERVER, '--bad-schema'])])
    mcp.start()
    await mcp.settled()
    expect(mcp.tools().map((tool) => tool.name)).not.toContain('mcp__fault__broken')
    expect(mcp.notices.join('\n')).toContain(
      'MCP tool mcp__fault__broken is left out: its input schema does not compile',
    )
  })

  it('tools/list_changed appends the new tool and keeps the others in place', async () => {
    const mcp = manager([stdio('fault', [FAULT_SERVER])])
    mcp.start()
    await mcp.settled()
    const before = mcp.tools()
    await before.find((tool) => tool.name === 'mcp__fault__add-tool')!.call({}, mcpTestCtx(), signal())
    await expect
      .poll(() => mcp.tools().map((tool) => tool.name), { timeout: 30_000 })
      .toContain('mcp__fault__extra')
    const after = mcp.tools().map((tool) => tool.name)
    expect(after.slice(0, before.length)).toEqual(before.map((tool) => tool.name))
    expect(after.at(-1)).toBe('mcp__fault__extra')
  })

  it('above 40 tools the schemas are deferred: a reminder lists them and LoadMcpTools loads two by name', async () => {
    const mcp = manager([stdio('bulk', [FAULT_SERVER, '--tools=60'])])
    mcp.start()
    await mcp.settled()
    const offered = mcp.tools().map((tool) => tool.name)
    expect(offered).toEqual(['LoadMcpTools'])
    expect(mcp.deferred()).toHaveLength(66)
    expect(mcp.reminders).toHaveLength(1)
    expect(mcp.reminders[0]).toContain('- mcp__bulk__t42: Bulk tool 42.')
    expect(mcp.reminders[0]).toContain('- mcp__bulk__echo: Echoes the message.')
    const load = mcp.tools()[0]!
    const loaded = await load.call({ names: ['mcp__bulk__t07', 'mcp__bulk__echo'] }, mcpTestCtx(), signal())
    expect(loaded).toMatchObject({ ok: true })
    // Offered in the server's order of listing, after LoadMcpTools.
    expect(mcp.tools().map((tool) => tool.name)).toEqual([
      'LoadMcpTools',
      'mcp__bulk__echo',
      'mcp__bulk__t07',
    ])
    expect(await load.call({ names: ['mcp__bulk__nope'] }, mcpTestCtx(), signal())).toMatchObject({
      ok: false,
    })
  })

  it('kills the whole process tree of a stdio server on close', async () => {
    const mcp = manager([stdio('tree', [FAULT_SERVER, '--child'])])
    mcp.start()
    await mcp.settled()
    await expect.poll(() => mcp.servers()[0]!.stderr, { timeout: 30_000 }).toMatch(/grandchild pid=\d+/)
    const grandchild = Number(/grandchild pid=(\d+)/.exec(mcp.servers()[0]!.stderr)![1])
    expect(isProcessAlive(grandchild)).toBe(true)
    await mcp.close()
    expect(isProcessAlive(grandchild)).toBe(false)
  })
})

describe('McpManager with an in-process server (embedders)', () => {
  it('connects an SDK McpServer through the in-memory transport and calls its tool', async () => {
    const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js')
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js')
    const server = new McpServer({ name: 'app', version: '1.0.0' })
    server.registerTool(
      'lookup',
      { description: 'Looks a key up', annotations: { readOnlyHint: true } },
      async () => ({
        content: [{ type: 'text', text: 'found it' }],
      }),
    )
    const mcp = new McpManager({
      specs: [],
      inProcess: [
        {
          name: 'app',
          connect: async () => {
            const [client, serverSide] = InMemoryTransport.createLinkedPair()
            await server.connect(serverSide)
            return client
          },
        },
      ],
      baseEnv: {},
      hooks: { notice: () => {}, remind: () => {} },
    })
    managers.push(mcp)
    mcp.start()
    await mcp.settled()
    expect(mcp.servers()[0]).toMatchObject({
      name: 'app',
      transport: 'in-process',
      status: 'ready',
      toolCount: 1,
    })
    const lookup = mcp.tools().find((tool) => tool.name === 'mcp__app__lookup')!
    expect(await lookup.call({}, mcpTestCtx(), signal())).toEqual({
      ok: true,
      output: { content: [{ type: 'text', text: 'found it' }] },
    })
  })
})
