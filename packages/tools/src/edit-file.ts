import { mkdir, readFile, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Preview } from '@z-engine/protocol'
import { createTwoFilesPatch, structuredPatch } from 'diff'
import type { ToolCtx } from './ctx.js'
import { type ApplyOutcome, applyEdits, type EditSpec } from './edit-apply.js'
import { changedMessage, checkFresh, notReadMessage, snapshotOf } from './file-snapshot.js'
import { realPathForOpen, writeChecked } from './real-path.js'
import { errorMessage, errorResult } from './results.js'
import { decodeText, encodeText, type TextFile } from './text-file.js'
import type { ToolResult } from './tool-result.js'

/** Lines of the new text shown after an edit, at most. */
const MAX_SNIPPET_LINES = 40

/** What a change to one file would do, computed without writing. */
type Planned =
  | { ok: true; before: string; after: string; file: TextFile; created: boolean; replacements: number }
  | { ok: false; code: string; message: string }

/**
 * Computes the edits against the file as it is on disk. `checkRead` enforces read-before-edit and
 * the staleness check (previews skip it: they only show what would change).
 */
async function plan(
  path: string,
  edits: EditSpec[],
  ctx: ToolCtx,
  checkRead: boolean,
  real = path,
): Promise<Planned> {
  const info = await stat(real).catch(() => undefined)
  if (!info) {
    const [first, ...rest] = edits
    if (first?.old_string !== '') {
      return {
        ok: false,
        code: 'not_found',
        message: `File does not exist: ${path}. To create it, use Write (or Edit with an empty old_string).`,
      }
    }
    const file: TextFile = { text: '', encoding: 'utf8', bom: false, lineEndings: 'lf' }
    const applied = rest.length === 0 ? ok(first.new_string, 1) : applyEdits(first.new_string, rest, 'lf')
    if (!applied.ok) return applied
    return {
      ok: true,
      before: '',
      after: applied.text,
      file,
      created: true,
      replacements: applied.replacements,
    }
  }
  if (info.isDirectory())
    return { ok: false, code: 'is_directory', message: `${path} is a directory, not a file.` }
  let bytes: Buffer
  if (checkRead) {
    const fresh = await checkFresh(path, ctx.fileTracker, real)
    if (fresh.type === 'notRead') return { ok: false, code: 'not_read', message: notReadMessage(path) }
    if (fresh.type === 'changed') return { ok: false, code: 'stale', message: changedMessage(path) }
    bytes = fresh.bytes
  } else {
    bytes = await readFile(path)
  }
  const file = decodeText(bytes)
  // An empty file takes an empty old_string as "set the content".
  const effective = file.text === '' && edits[0]?.old_string === '' ? edits.slice(1) : edits
  const start = effective === edits ? file.text : edits[0]!.new_string
  const applied = effective.length === 0 ? ok(start, 1) : applyEdits(start, effective, file.lineEndings)
  if (!applied.ok) return applied
  return {
    ok: true,
    before: file.text,
    after: applied.text,
    file,
    created: false,
    replacements: applied.replacements,
  }
}

function ok(text: string, replacements: number): ApplyOutcome {
  return { ok: true, text, replacements }
}

/** Applies edits to one file under its path lock (Edit, MultiEdit). */
export async function editFile(path: string, edits: EditSpec[], ctx: ToolCtx): Promise<ToolResult> {
  // The file is changed at the real path the permission decision saw, or not at all.
  const checked = realPathForOpen(path, ctx)
  if (!checked.ok) return { ok: false, error: checked.error }
  const real = checked.real
  try {
    return await ctx.pathLocks.withLocks([path], async () => {
      const planned = await plan(path, edits, ctx, true, real)
      if (!planned.ok) return errorResult(planned.code, planned.message)
      await mkdir(dirname(real), { recursive: true })
      const bytes = encodeText(planned.after, planned.file)
      await writeChecked(real, bytes)
      ctx.fileTracker.recordRead(path, await snapshotOf(path, bytes))
      const verb = planned.created ? 'created' : 'updated'
      const count = planned.replacements > 1 ? ` (${planned.replacements} replacements)` : ''
      const text = `The file ${path} has been ${verb}${count}. The changed region now reads:\n${changedSnippet(planned.before, planned.after)}`
      return {
        ok: true,
        output: {
          content: [{ type: 'text', text }],
          changedFiles: [path],
          details: {
            path,
            unifiedDiff: unifiedDiff(path, planned.before, planned.after),
            created: planned.created,
          },
        },
      }
    })
  } catch (error) {
    return errorResult('write_failed', `Could not edit ${path}: ${errorMessage(error)}`)
  }
}

/** Why edits cannot apply to the file as it is now (a missing or ambiguous old_string), or undefined. */
export async function checkEdits(path: string, edits: EditSpec[], ctx: ToolCtx): Promise<string | undefined> {
  try {
    const planned = await plan(path, edits, ctx, false)
    return planned.ok ? undefined : planned.message
  } catch {
    // Unreadable now: the call itself says why.
    return undefined
  }
}

/** The approval card's diff for edits (or why they would fail). */
export async function previewEdits(path: string, edits: EditSpec[], ctx: ToolCtx): Promise<Preview> {
  try {
    const planned = await plan(path, edits, ctx, false)
    if (!planned.ok) return { type: 'text', text: planned.message }
    return { type: 'diff', path, unifiedDiff: unifiedDiff(path, planned.before, planned.after) }
  } catch (error) {
    return { type: 'text', text: `Cannot preview: ${errorMessage(error)}` }
  }
}

/** A unified diff of a file's change (line endings shown as LF). */
export function unifiedDiff(path: string, before: string, after: string): string {
  return createTwoFilesPatch(
    path,
    path,
    before.replace(/\r\n/g, '\n'),
    after.replace(/\r\n/g, '\n'),
    '',
    '',
    { context: 3 },
  )
}

/** The new side of each hunk with line numbers, so the model sees the result without a Read. */
export function changedSnippet(before: string, after: string): string {
  const patch = structuredPatch(
    'a',
    'b',
    before.replace(/\r\n/g, '\n'),
    after.replace(/\r\n/g, '\n'),
    '',
    '',
    { context: 2 },
  )
  const out: string[] = []
  for (const hunk of patch.hunks) {
    if (out.length > 0) out.push('   ...')
    let number = hunk.newStart
    for (const line of hunk.lines) {
      if (line.startsWith('-') || line.startsWith('\\')) continue
      out.push(`${String(number).padStart(6)}\t${line.slice(1)}`)
      number += 1
    }
  }
  if (out.length > MAX_SNIPPET_LINES)
    return `${out.slice(0, MAX_SNIPPET_LINES).join('\n')}\n   ... (${out.length - MAX_SNIPPET_LINES} more changed lines)`
  return out.length > 0 ? out.join('\n') : '(no visible change)'
}
