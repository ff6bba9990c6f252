import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Ports } from '../ports.js'
import { RecordingLsp } from '../recording-ports.js'
import { makeTestCtx, resultText } from '../testing.js'
import { lspTool } from './lsp.js'

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

describe('LSP', () => {
  it('resolves the file against the cwd and passes the 1-based position through', async () => {
    const lsp = new RecordingLsp()
    const ctx = ctxWith({ lsp })
    const result = await lspTool.call(
      { operation: 'hover', filePath: 'src/a.ts', line: 3, character: 7 },
      ctx,
      signal,
    )
    expect(resultText(result)).toBe('answer')
    expect(lsp.queries).toEqual([
      { operation: 'hover', filePath: join(ctx.cwd, 'src/a.ts'), line: 3, character: 7 },
    ])
  })

  it('asks a workspace symbol query without a file', async () => {
    const lsp = new RecordingLsp()
    await lspTool.call({ operation: 'workspaceSymbol', query: 'parseToml' }, ctxWith({ lsp }), signal)
    expect(lsp.queries).toEqual([{ operation: 'workspaceSymbol', query: 'parseToml' }])
  })

  it('names the fields an operation is missing', async () => {
    const lsp = new RecordingLsp()
    const ctx = ctxWith({ lsp })
    expect(
      resultText(await lspTool.call({ operation: 'renamePreview', filePath: 'a.ts' }, ctx, signal)),
    ).toBe('renamePreview needs line and character (or symbol), newName.')
    expect(resultText(await lspTool.call({ operation: 'workspaceSymbol' }, ctx, signal))).toBe(
      'workspaceSymbol needs query.',
    )
    expect(lsp.queries).toEqual([])
  })

  it('says when no language server covers the file and suggests Grep', async () => {
    const lsp = new RecordingLsp(['.ts'])
    const result = await lspTool.call(
      { operation: 'documentSymbol', filePath: 'main.zig' },
      ctxWith({ lsp }),
      signal,
    )
    expect(result.ok).toBe(false)
    expect(resultText(result)).toContain(
      'No language server covers main.zig (none is installed or configured for .zig files)',
    )
    expect(resultText(result)).toContain('Grep')
  })

  it('is read-only, concurrency-safe, and reads the file for the policy', () => {
    const ctx = ctxWith({})
    const input = { operation: 'findReferences' as const, filePath: 'src/a.ts', line: 1, character: 2 }
    expect(lspTool.isReadOnly(input)).toBe(true)
    expect(lspTool.isConcurrencySafe(input)).toBe(true)
    expect(lspTool.action(input, ctx)).toEqual({ type: 'read', paths: [join(ctx.cwd, 'src/a.ts')] })
    expect(lspTool.title(input, ctx)).toBe('LSP findReferences src/a.ts:1:2')
  })
})
