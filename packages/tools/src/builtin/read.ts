import { readdir, stat } from 'node:fs/promises'
import { basename, dirname, extname } from 'node:path'
import { toolDescription } from '@z-engine/prompts'
import { distance as editDistance } from 'fastest-levenshtein'
import type { ToolCtx } from '../ctx.js'
import { snapshotOf } from '../file-snapshot.js'
import { parseNotebook, renderNotebook } from '../notebook.js'
import { budgetOutput } from '../output-budget.js'
import { displayPath, resolveInputPath } from '../paths.js'
import { openForRead, realPathForOpen } from '../real-path.js'
import { errorMessage, errorResult } from '../results.js'
import { decodeText, looksBinary } from '../text-file.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'
import type { ToolResult } from '../tool-result.js'

/** Read's input (Claude Code's shape). */
export type ReadInput = { file_path: string; offset?: number; limit?: number }

/** Characters of one line shown before it is cut. */
const MAX_LINE_CHARS = 2_000
/** Bytes of an image sent to the model (providers refuse larger ones). */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024
/** Files larger than this are not read even in parts; Grep or Bash can still look inside. */
const HARD_MAX_BYTES = 64 * 1024 * 1024

const IMAGE_TYPES: Record<string, 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
}

/** Reads a text file with numbered lines, an image, or a notebook. */
export const readTool: Tool<ReadInput> = {
  name: 'Read',
  description: () => toolDescription('Read'),
  inputSchema: {
    type: 'object',
    properties: {
      file_path: {
        type: 'string',
        description: 'The path of the file to read (absolute, or relative to the cwd)',
      },
      offset: { type: 'integer', minimum: 1, description: 'The line number to start reading from (1-based)' },
      limit: { type: 'integer', minimum: 1, description: 'The number of lines to read' },
    },
    required: ['file_path'],
    additionalProperties: false,
  },
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  action: (input, ctx) => actionFor('Read', input, ctx),
  title: (input, ctx) => `Read ${displayPath(resolveInputPath(String(input.file_path ?? ''), ctx), ctx)}`,
  preview: async () => undefined,
  call: async (input, ctx) => {
    const path = resolveInputPath(input.file_path, ctx)
    // The file is opened by the real path the permission decision saw, or not at all.
    const checked = realPathForOpen(path, ctx)
    if (!checked.ok) return { ok: false, error: checked.error }
    try {
      return await readPath(path, checked.real, input, ctx)
    } catch (error) {
      return errorResult('read_failed', `Could not read ${path}: ${errorMessage(error)}`)
    }
  },
}

/** The whole file at a checked real path, through a handle verified to be that path. */
async function readChecked(real: string): Promise<Buffer> {
  const handle = await openForRead(real)
  try {
    return await handle.readFile()
  } finally {
    await handle.close()
  }
}

async function readPath(path: string, real: string, input: ReadInput, ctx: ToolCtx): Promise<ToolResult> {
  const info = await stat(real).catch(() => undefined)
  if (!info) return errorResult('not_found', await notFoundMessage(path))
  if (info.isDirectory()) {
    return errorResult(
      'is_directory',
      `${path} is a directory, not a file. List it with Glob (pattern "*" and path "${path}") or Bash ls.`,
    )
  }
  if (!info.isFile())
    return errorResult('not_a_file', `${path} is not a regular file (a device, socket or pipe).`)
  const extension = extname(path).toLowerCase()
  const mediaType = IMAGE_TYPES[extension]
  if (mediaType) return readImage(path, real, info.size, mediaType, ctx)
  if (extension === '.pdf') {
    return errorResult(
      'unsupported',
      `${path} is a PDF; Read shows text files, images and notebooks. Try Bash: pdftotext "${path}" -`,
    )
  }
  if (info.size > HARD_MAX_BYTES) {
    return errorResult(
      'too_large',
      `${path} is ${formatBytes(info.size)}, too large to read. Search it with Grep, or look at parts with Bash (head, tail, sed -n).`,
    )
  }
  const partRequested = input.offset !== undefined || input.limit !== undefined
  if (info.size > ctx.limits.readMaxBytes && !partRequested && extension !== '.ipynb') {
    return errorResult(
      'too_large',
      `${path} is ${formatBytes(info.size)}, more than the ${formatBytes(ctx.limits.readMaxBytes)} Read returns at once. Read a part with offset and limit, or search it with Grep.`,
    )
  }
  const bytes = await readChecked(real)
  if (extension === '.ipynb') return readNotebook(path, bytes, ctx)
  if (looksBinary(bytes)) {
    return errorResult(
      'binary',
      `${path} is a binary file (${formatBytes(bytes.length)}); Read shows text only. Inspect it with Bash (file, xxd | head).`,
    )
  }
  return readText(path, bytes, input, ctx)
}

async function readText(path: string, bytes: Buffer, input: ReadInput, ctx: ToolCtx): Promise<ToolResult> {
  const { text } = decodeText(bytes)
  const lines = text.split('\n')
  // A trailing newline ends the last line; it does not start an empty one.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop()
  const total = text === '' ? 0 : lines.length
  const start = Math.max(1, Math.floor(input.offset ?? 1))
  const limit = Math.max(1, Math.floor(input.limit ?? ctx.limits.readDefaultLines))
  const end = Math.min(total, start + limit - 1)
  ctx.fileTracker.recordRead(path, await snapshotOf(path, bytes, !(start === 1 && end >= total)))
  const details = { path, totalLines: total, startLine: start, endLine: end }
  if (total === 0)
    return {
      ok: true,
      output: { content: [{ type: 'text', text: `(The file ${path} exists but is empty.)` }], details },
    }
  if (start > total) {
    return {
      ok: true,
      output: {
        content: [
          {
            type: 'text',
            text: `(The file has only ${total} lines, so offset ${start} is past its end. Use an offset from 1 to ${total}.)`,
          },
        ],
        details,
      },
    }
  }
  const width = Math.max(6, String(end).length)
  const numbered: string[] = []
  for (let number = start; number <= end; number += 1) {
    let line = lines[number - 1]!
    if (line.endsWith('\r')) line = line.slice(0, -1)
    if (line.length > MAX_LINE_CHARS) {
      line = `${line.slice(0, MAX_LINE_CHARS)}… [line cut: ${line.length - MAX_LINE_CHARS} more characters]`
    }
    numbered.push(`${String(number).padStart(width)}\t${line}`)
  }
  let body = numbered.join('\n')
  if (end < total) body += `\n\n(Showing lines ${start}-${end} of ${total}. Continue with offset=${end + 1}.)`
  const shown = await budgetOutput(ctx, body, 'file', `read-${basename(path)}`)
  return { ok: true, output: { content: [{ type: 'text', text: shown }], details } }
}

async function readImage(
  path: string,
  real: string,
  size: number,
  mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp',
  ctx: ToolCtx,
): Promise<ToolResult> {
  if (!ctx.vision) {
    return errorResult(
      'no_vision',
      `${path} is an image, and the current model cannot view images. Describe what you need from it another way (for example Bash: file "${path}").`,
    )
  }
  if (size > MAX_IMAGE_BYTES) {
    return errorResult(
      'too_large',
      `${path} is a ${formatBytes(size)} image; images up to ${formatBytes(MAX_IMAGE_BYTES)} can be shown. Resize it first (for example with ImageMagick via Bash).`,
    )
  }
  const bytes = await readChecked(real)
  ctx.fileTracker.recordRead(path, await snapshotOf(path, bytes))
  return {
    ok: true,
    output: {
      content: [
        { type: 'text', text: `Image ${path} (${mediaType}, ${formatBytes(bytes.length)}):` },
        { type: 'image', source: { type: 'base64', mediaType, data: bytes.toString('base64') } },
      ],
      details: { path, mediaType, bytes: bytes.length },
    },
  }
}

async function readNotebook(path: string, bytes: Buffer, ctx: ToolCtx): Promise<ToolResult> {
  const parsed = parseNotebook(decodeText(bytes).text)
  if (!parsed.ok)
    return errorResult('invalid_notebook', `${path} could not be read as a notebook: ${parsed.message}.`)
  ctx.fileTracker.recordRead(path, await snapshotOf(path, bytes))
  const content = renderNotebook(parsed.notebook, ctx.vision)
  const budgeted = await Promise.all(
    content.map(async (block) =>
      block.type === 'text'
        ? { ...block, text: await budgetOutput(ctx, block.text, 'file', `read-${basename(path)}`) }
        : block,
    ),
  )
  return { ok: true, output: { content: budgeted, details: { path, cells: parsed.notebook.cells.length } } }
}

/** "File does not exist", with close names from the same folder when there are any. */
async function notFoundMessage(path: string): Promise<string> {
  const folder = dirname(path)
  const names = await readdir(folder).catch(() => undefined)
  if (!names) return `File does not exist: ${path} (nor does its folder ${folder}). Check the path with Glob.`
  const wanted = basename(path).toLowerCase()
  const stem = wanted.replace(/\.[^.]*$/, '')
  const close = names
    .filter((name) => {
      const lower = name.toLowerCase()
      return lower === wanted || lower.replace(/\.[^.]*$/, '') === stem || editDistance(lower, wanted) <= 2
    })
    .slice(0, 5)
  const hint =
    close.length > 0
      ? ` Did you mean ${close.map((name) => `${folder}/${name}`).join(', ')}?`
      : ' Check the path with Glob.'
  return `File does not exist: ${path}.${hint}`
}

/** Bytes as a short human size. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}
