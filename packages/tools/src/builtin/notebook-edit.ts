import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { toolDescription } from '@z-engine/prompts'
import type { ToolCtx } from '../ctx.js'
import { unifiedDiff } from '../edit-file.js'
import { changedMessage, checkFresh, notReadMessage, snapshotOf } from '../file-snapshot.js'
import { cellIdOf, type Notebook, type NotebookCell, parseNotebook } from '../notebook.js'
import { displayPath, resolveInputPath } from '../paths.js'
import { realPathForOpen, writeChecked } from '../real-path.js'
import { errorMessage, errorResult } from '../results.js'
import { decodeText } from '../text-file.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'
import type { ToolResult } from '../tool-result.js'

/** NotebookEdit's input (Claude Code's shape). */
export type NotebookEditInput = {
  notebook_path: string
  cell_id?: string
  new_source: string
  cell_type?: 'code' | 'markdown'
  edit_mode?: 'replace' | 'insert' | 'delete'
}

/** A planned notebook change. */
type Planned =
  | { ok: true; before: string; after: string; summary: string }
  | { ok: false; code: string; message: string }

/** Replaces, inserts or deletes one cell of a Jupyter notebook. */
export const notebookEditTool: Tool<NotebookEditInput> = {
  name: 'NotebookEdit',
  description: () => toolDescription('NotebookEdit'),
  inputSchema: {
    type: 'object',
    properties: {
      notebook_path: { type: 'string', description: 'The path of the .ipynb file' },
      cell_id: {
        type: 'string',
        description:
          'The id of the cell to edit; for insert, the new cell goes after it (at the start when omitted)',
      },
      new_source: { type: 'string', description: 'The new source of the cell' },
      cell_type: {
        type: 'string',
        enum: ['code', 'markdown'],
        description: 'The cell type (required for insert)',
      },
      edit_mode: {
        type: 'string',
        enum: ['replace', 'insert', 'delete'],
        description: 'replace (default), insert or delete',
      },
    },
    required: ['notebook_path', 'new_source'],
    additionalProperties: false,
  },
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  action: (input, ctx) => actionFor('NotebookEdit', input, ctx),
  title: (input, ctx) => {
    const mode = input.edit_mode ?? 'replace'
    const path = displayPath(resolveInputPath(String(input.notebook_path ?? ''), ctx), ctx)
    return `${mode === 'insert' ? 'Insert a cell in' : mode === 'delete' ? 'Delete a cell of' : 'Edit a cell of'} ${path}`
  },
  preview: async (input, ctx) => {
    const path = resolveInputPath(input.notebook_path, ctx)
    try {
      const planned = plan(decodeText(await readFile(path)).text, input)
      if (!planned.ok) return { type: 'text', text: planned.message }
      return { type: 'diff', path, unifiedDiff: unifiedDiff(path, planned.before, planned.after) }
    } catch (error) {
      return { type: 'text', text: `Cannot preview: ${errorMessage(error)}` }
    }
  },
  call: async (input, ctx) => {
    const path = resolveInputPath(input.notebook_path, ctx)
    if (!path.endsWith('.ipynb')) {
      return errorResult(
        'not_a_notebook',
        `${path} is not a Jupyter notebook (.ipynb). Use Edit for other files.`,
      )
    }
    // The notebook is changed at the real path the permission decision saw, or not at all.
    const checked = realPathForOpen(path, ctx)
    if (!checked.ok) return { ok: false, error: checked.error }
    try {
      return await ctx.pathLocks.withLocks([path], () => apply(path, checked.real, input, ctx))
    } catch (error) {
      return errorResult('write_failed', `Could not edit ${path}: ${errorMessage(error)}`)
    }
  },
}

async function apply(
  path: string,
  real: string,
  input: NotebookEditInput,
  ctx: ToolCtx,
): Promise<ToolResult> {
  const fresh = await checkFresh(path, ctx.fileTracker, real).catch(() => undefined)
  if (!fresh) return errorResult('not_found', `Notebook does not exist: ${path}. Create it with Write first.`)
  if (fresh.type === 'notRead') return errorResult('not_read', notReadMessage(path))
  if (fresh.type === 'changed') return errorResult('stale', changedMessage(path))
  const planned = plan(decodeText(fresh.bytes).text, input)
  if (!planned.ok) return errorResult(planned.code, planned.message)
  const bytes = Buffer.from(planned.after, 'utf8')
  await writeChecked(real, bytes)
  ctx.fileTracker.recordRead(path, await snapshotOf(path, bytes))
  return {
    ok: true,
    output: {
      content: [{ type: 'text', text: planned.summary }],
      changedFiles: [path],
      details: { path, unifiedDiff: unifiedDiff(path, planned.before, planned.after) },
    },
  }
}

/** Computes the new notebook text. */
function plan(text: string, input: NotebookEditInput): Planned {
  const parsed = parseNotebook(text)
  if (!parsed.ok)
    return {
      ok: false,
      code: 'invalid_notebook',
      message: `The notebook could not be parsed: ${parsed.message}.`,
    }
  const notebook = parsed.notebook
  const mode = input.edit_mode ?? 'replace'
  const index = input.cell_id === undefined ? undefined : findCell(notebook, input.cell_id)
  if (input.cell_id !== undefined && index === undefined) {
    const ids = notebook.cells.map(cellIdOf).slice(0, 20).join(', ')
    return {
      ok: false,
      code: 'cell_not_found',
      message: `No cell with id "${input.cell_id}". Cell ids: ${ids || '(none)'}. Read the notebook to see them.`,
    }
  }
  let summary: string
  switch (mode) {
    case 'replace': {
      if (index === undefined)
        return { ok: false, code: 'invalid_input', message: 'cell_id is required to replace a cell.' }
      const cell = notebook.cells[index]!
      cell.source = toSourceLines(input.new_source)
      if (input.cell_type && input.cell_type !== cell.cell_type) cell.cell_type = input.cell_type
      resetOutputs(cell)
      summary = `Updated cell ${cellIdOf(cell, index)}.`
      break
    }
    case 'insert': {
      if (!input.cell_type)
        return {
          ok: false,
          code: 'invalid_input',
          message: 'cell_type (code or markdown) is required to insert a cell.',
        }
      const cell: NotebookCell = {
        cell_type: input.cell_type,
        metadata: {},
        source: toSourceLines(input.new_source),
      }
      if (usesIds(notebook)) cell.id = randomBytes(4).toString('hex')
      resetOutputs(cell)
      const at = index === undefined ? 0 : index + 1
      notebook.cells.splice(at, 0, cell)
      summary = `Inserted a ${input.cell_type} cell ${cellIdOf(cell, at)} ${index === undefined ? 'at the start' : `after cell ${input.cell_id}`}.`
      break
    }
    case 'delete': {
      if (index === undefined)
        return { ok: false, code: 'invalid_input', message: 'cell_id is required to delete a cell.' }
      notebook.cells.splice(index, 1)
      summary = `Deleted cell ${input.cell_id}.`
      break
    }
    default: {
      const never: never = mode
      return {
        ok: false,
        code: 'invalid_input',
        message: `Unknown edit_mode ${String(never)}; use replace, insert or delete.`,
      }
    }
  }
  const indent = /^\{\s*\n( +|\t)"/.exec(text)?.[1] ?? ' '
  const after = JSON.stringify(notebook, null, indent) + (text.endsWith('\n') ? '\n' : '')
  return { ok: true, before: text, after, summary }
}

/** The index of a cell by id, `cell-N`, or a plain index. */
function findCell(notebook: Notebook, id: string): number | undefined {
  const byId = notebook.cells.findIndex((cell, index) => cellIdOf(cell, index) === id)
  if (byId !== -1) return byId
  const numeric = /^(?:cell-)?(\d+)$/.exec(id)
  if (numeric) {
    const index = Number(numeric[1])
    if (index < notebook.cells.length) return index
  }
  return undefined
}

/** Notebooks from nbformat 4.5 on carry cell ids. */
function usesIds(notebook: Notebook): boolean {
  return (
    (notebook.nbformat ?? 0) > 4 || ((notebook.nbformat ?? 0) === 4 && (notebook.nbformat_minor ?? 0) >= 5)
  )
}

/** A code cell's outputs are stale once its source changes; other cells carry none. */
function resetOutputs(cell: NotebookCell): void {
  if (cell.cell_type === 'code') {
    cell.execution_count = null
    cell.outputs = []
  } else {
    delete cell.execution_count
    delete cell.outputs
  }
}

/** Source as Jupyter stores it: lines that keep their `\n`. */
function toSourceLines(source: string): string[] {
  return source.split(/(?<=\n)/).filter((line) => line !== '')
}
