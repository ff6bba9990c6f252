import type { ToolCtx } from './ctx.js'
import type { ToolResult } from './tool-result.js'

/**
 * Appends the language server's fresh error diagnostics for each file a successful write changed
 * (spec 000: "after a write to a covered file, error diagnostics are appended to that tool
 * result"). The port bounds the wait; a failing server never fails the write.
 */
export async function withDiagnostics(
  result: ToolResult,
  ctx: ToolCtx,
  signal: AbortSignal,
): Promise<ToolResult> {
  const lsp = ctx.ports.lsp
  if (!result.ok || lsp === undefined) return result
  const files = (result.output.changedFiles ?? []).filter((path) => lsp.covers(path))
  if (files.length === 0) return result
  const notes = await Promise.all(
    files.map((path) => lsp.diagnosticsAfterWrite(path, signal).catch(() => undefined)),
  )
  const texts = notes.filter((note): note is string => note !== undefined)
  if (texts.length === 0) return result
  return {
    ok: true,
    output: {
      ...result.output,
      content: [...result.output.content, ...texts.map((text) => ({ type: 'text' as const, text }))],
    },
  }
}
