import { mkdir, readFile, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { toolDescription } from '@z-engine/prompts'
import type { ToolCtx } from '../ctx.js'
import { unifiedDiff } from '../edit-file.js'
import { changedMessage, checkFresh, notReadMessage, snapshotOf } from '../file-snapshot.js'
import { displayPath, resolveInputPath } from '../paths.js'
import { realPathForOpen, writeChecked } from '../real-path.js'
import { errorMessage, errorResult } from '../results.js'
import { decodeText, encodeText, type TextFile, toCrlf } from '../text-file.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'
import type { ToolResult } from '../tool-result.js'
import { withDiagnostics } from '../write-diagnostics.js'

/** Write's input (Claude Code's shape). */
export type WriteInput = { file_path: string; content: string }

/**
 * Writes a whole file. An existing file must have been read first (and not changed since); its
 * encoding and BOM are kept, and LF content written over a CRLF file is converted to CRLF.
 */
export const writeTool: Tool<WriteInput> = {
  name: 'Write',
  description: () => toolDescription('Write'),
  inputSchema: {
    type: 'object',
    properties: {
      file_path: { type: 'string', description: 'The path of the file to write' },
      content: { type: 'string', description: 'The full content of the file' },
    },
    required: ['file_path', 'content'],
    additionalProperties: false,
  },
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  action: (input, ctx) => actionFor('Write', input, ctx),
  title: (input, ctx) => `Write ${displayPath(resolveInputPath(String(input.file_path ?? ''), ctx), ctx)}`,
  preview: async (input, ctx) => {
    const path = resolveInputPath(input.file_path, ctx)
    const before = await readFile(path).then(
      (bytes) => decodeText(bytes).text,
      () => '',
    )
    return { type: 'diff', path, unifiedDiff: unifiedDiff(path, before, input.content) }
  },
  call: async (input, ctx, signal) => withDiagnostics(await writeFile(input, ctx), ctx, signal),
}

async function writeFile(input: WriteInput, ctx: ToolCtx): Promise<ToolResult> {
  const path = resolveInputPath(input.file_path, ctx)
  if (typeof input.content !== 'string') return errorResult('invalid_input', 'content must be a string.')
  // The file is written at the real path the permission decision saw, or not at all.
  const checked = realPathForOpen(path, ctx)
  if (!checked.ok) return { ok: false, error: checked.error }
  const real = checked.real
  try {
    return await ctx.pathLocks.withLocks([path], async () => {
      const info = await stat(real).catch(() => undefined)
      if (info?.isDirectory()) return errorResult('is_directory', `${path} is a directory; give a file path.`)
      let existing: TextFile | undefined
      if (info) {
        const fresh = await checkFresh(path, ctx.fileTracker, real)
        if (fresh.type === 'notRead') return errorResult('not_read', notReadMessage(path))
        if (fresh.type === 'changed') return errorResult('stale', changedMessage(path))
        existing = decodeText(fresh.bytes)
      }
      const content =
        existing?.lineEndings === 'crlf' && !input.content.includes('\r\n')
          ? toCrlf(input.content)
          : input.content
      await mkdir(dirname(real), { recursive: true })
      const bytes = encodeText(content, existing ?? { encoding: 'utf8', bom: false })
      await writeChecked(real, bytes)
      ctx.fileTracker.recordRead(path, await snapshotOf(path, bytes))
      const lines = content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0)
      const text = existing
        ? `The file ${path} has been overwritten (${lines} lines).`
        : `File created at ${path} (${lines} lines).`
      return {
        ok: true,
        output: {
          content: [{ type: 'text', text }],
          changedFiles: [path],
          details: {
            path,
            created: !existing,
            unifiedDiff: unifiedDiff(path, existing?.text ?? '', content),
          },
        },
      }
    })
  } catch (error) {
    return errorResult('write_failed', `Could not write ${path}: ${errorMessage(error)}`)
  }
}
