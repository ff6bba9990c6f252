import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { callTool, makeTestCtx, resultText, type TestCtx } from '../testing.js'
import { notebookEditTool } from './notebook-edit.js'
import { readTool } from './read.js'

let ctx: TestCtx
let path: string
const notebook = {
  cells: [
    { cell_type: 'markdown', id: 'md1', metadata: {}, source: ['# Title\n', 'intro'] },
    {
      cell_type: 'code',
      id: 'code1',
      metadata: {},
      execution_count: 3,
      outputs: [{ output_type: 'stream', name: 'stdout', text: ['1\n'] }],
      source: ['x = 1\n', 'print(x)'],
    },
  ],
  metadata: { language_info: { name: 'python' } },
  nbformat: 4,
  nbformat_minor: 5,
}
const cells = (): Array<Record<string, unknown>> => JSON.parse(readFileSync(path, 'utf8')).cells

beforeEach(async () => {
  ctx = makeTestCtx()
  path = join(ctx.projectRoot, 'n.ipynb')
  writeFileSync(path, `${JSON.stringify(notebook, null, 1)}\n`)
  expect((await callTool(readTool, { file_path: path }, ctx)).ok).toBe(true)
})
afterEach(() => ctx.cleanup())

describe('NotebookEdit', () => {
  it('replaces a cell and clears its stale outputs', async () => {
    const result = await callTool(
      notebookEditTool,
      { notebook_path: path, cell_id: 'code1', new_source: 'y = 2\nprint(y)' },
      ctx,
    )
    expect(resultText(result)).toBe('Updated cell code1.')
    expect(result.ok && result.output.changedFiles).toEqual([path])
    expect(cells()[1]).toMatchObject({ source: ['y = 2\n', 'print(y)'], execution_count: null, outputs: [] })
    expect(readFileSync(path, 'utf8').startsWith('{\n "cells"')).toBe(true)
  })
  it('inserts after a cell (with a new id) and at the start', async () => {
    const after = await callTool(
      notebookEditTool,
      { notebook_path: path, cell_id: 'md1', new_source: 'z = 3', cell_type: 'code', edit_mode: 'insert' },
      ctx,
    )
    expect(after.ok).toBe(true)
    expect(cells()).toHaveLength(3)
    expect(cells()[1]).toMatchObject({ cell_type: 'code', source: ['z = 3'], outputs: [] })
    expect(typeof cells()[1]!.id).toBe('string')
    await callTool(
      notebookEditTool,
      { notebook_path: path, new_source: 'first', cell_type: 'markdown', edit_mode: 'insert' },
      ctx,
    )
    expect(cells()[0]).toMatchObject({ cell_type: 'markdown', source: ['first'] })
  })
  it('deletes a cell, also by index', async () => {
    expect(
      (
        await callTool(
          notebookEditTool,
          { notebook_path: path, cell_id: 'cell-0', new_source: '', edit_mode: 'delete' },
          ctx,
        )
      ).ok,
    ).toBe(true)
    expect(cells().map((cell) => cell.id)).toEqual(['code1'])
  })
  it('gives clear errors', async () => {
    const unknown = await callTool(
      notebookEditTool,
      { notebook_path: path, cell_id: 'nope', new_source: 'x' },
      ctx,
    )
    expect(resultText(unknown)).toContain('Cell ids: md1, code1')
    const noType = await callTool(
      notebookEditTool,
      { notebook_path: path, new_source: 'x', edit_mode: 'insert' },
      ctx,
    )
    expect(!noType.ok && noType.error.code).toBe('invalid_input')
    writeFileSync(path, readFileSync(path, 'utf8').replace('intro', 'changed'))
    const stale = await callTool(
      notebookEditTool,
      { notebook_path: path, cell_id: 'md1', new_source: 'x' },
      ctx,
    )
    expect(!stale.ok && stale.error.code).toBe('stale')
    const other = await callTool(
      notebookEditTool,
      { notebook_path: join(ctx.projectRoot, 'a.py'), new_source: 'x' },
      ctx,
    )
    expect(!other.ok && other.error.code).toBe('not_a_notebook')
  })
  it('previews the change as a diff and maps to a write action', async () => {
    const preview = await notebookEditTool.preview(
      { notebook_path: path, cell_id: 'md1', new_source: 'Hello' },
      ctx,
    )
    expect(preview?.type === 'diff' && preview.unifiedDiff).toMatch(/\+\s+"Hello"/)
    expect(notebookEditTool.action({ notebook_path: 'n.ipynb', new_source: '' }, ctx)).toEqual({
      type: 'write',
      paths: [path],
    })
  })
})
