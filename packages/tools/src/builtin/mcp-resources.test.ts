import { afterEach, describe, expect, it } from 'vitest'
import type { Ports } from '../ports.js'
import { RecordingMcp } from '../recording-ports.js'
import { makeTestCtx, resultText } from '../testing.js'
import { listMcpResourcesTool } from './list-mcp-resources.js'
import { readMcpResourceTool } from './read-mcp-resource.js'

const signal = new AbortController().signal
const contexts: Array<ReturnType<typeof makeTestCtx>> = []
const ctxWith = (ports: Ports) => {
  const ctx = makeTestCtx({ ports })
  contexts.push(ctx)
  return ctx
}
afterEach(() => {
  for (const ctx of contexts.splice(0)) ctx.cleanup()
})

describe('ListMcpResources and ReadMcpResource', () => {
  it('lists one server or all of them', async () => {
    const mcp = new RecordingMcp()
    const ctx = ctxWith({ mcp })
    expect(resultText(await listMcpResourcesTool.call({ server: 'docs' }, ctx, signal))).toBe('resources')
    await listMcpResourcesTool.call({}, ctx, signal)
    expect(mcp.listed).toEqual(['docs', undefined])
  })

  it('reads a resource by server and uri', async () => {
    const mcp = new RecordingMcp()
    const result = await readMcpResourceTool.call(
      { server: 'docs', uri: 'file:///guide.md' },
      ctxWith({ mcp }),
      signal,
    )
    expect(resultText(result)).toBe('contents')
    expect(mcp.read).toEqual([{ server: 'docs', uri: 'file:///guide.md' }])
  })

  it('shortens a huge resource to the result limit and spills the full text', async () => {
    const long = Array.from({ length: 500 }, (_, index) => `row ${index + 1}`).join('\n')
    const mcp = new RecordingMcp(undefined, { ok: true, output: { content: [{ type: 'text', text: long }] } })
    const ctx = makeTestCtx({ ports: { mcp }, limits: { maxResultChars: 200 } })
    contexts.push(ctx)
    const text = resultText(
      await readMcpResourceTool.call({ server: 'db', uri: 'schema://all' }, ctx, signal),
    )
    expect(text).toContain('row 1\n')
    expect(text).not.toContain('row 500')
    expect(ctx.spilled[0]!.content).toBe(long)
    expect(text).toContain(ctx.spilled[0]!.path)
  })

  it('turns a throwing port into an error result', async () => {
    const mcp = new RecordingMcp()
    mcp.readResource = async () => {
      throw new Error('server docs is not connected')
    }
    const result = await readMcpResourceTool.call({ server: 'docs', uri: 'x' }, ctxWith({ mcp }), signal)
    expect(result.ok).toBe(false)
    expect(resultText(result)).toBe('ReadMcpResource failed: server docs is not connected')
  })

  it('says so when MCP is off', async () => {
    expect(resultText(await listMcpResourcesTool.call({}, ctxWith({}), signal))).toContain('not available')
  })

  it('are read-only resource calls for the policy', () => {
    const ctx = ctxWith({})
    expect(readMcpResourceTool.action({ server: 'docs', uri: 'x' }, ctx)).toMatchObject({
      type: 'mcpCall',
      server: 'docs',
      readOnly: true,
    })
    expect(listMcpResourcesTool.isConcurrencySafe({})).toBe(true)
  })
})
