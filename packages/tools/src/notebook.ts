import type { ToolResultContent } from '@z-engine/protocol'

/** One cell of a Jupyter notebook (nbformat 4), as much as the tools use. */
export interface NotebookCell {
  cell_type: 'code' | 'markdown' | 'raw'
  id?: string
  source: string | string[]
  metadata?: Record<string, unknown>
  execution_count?: number | null
  outputs?: NotebookOutput[]
  [key: string]: unknown
}

/** One output of a code cell. */
export interface NotebookOutput {
  output_type: 'stream' | 'execute_result' | 'display_data' | 'error'
  text?: string | string[]
  data?: Record<string, string | string[]>
  ename?: string
  evalue?: string
  traceback?: string[]
}

/** A notebook file's JSON. */
export interface Notebook {
  cells: NotebookCell[]
  metadata?: { language_info?: { name?: string }; [key: string]: unknown }
  nbformat?: number
  nbformat_minor?: number
  [key: string]: unknown
}

/** Parses notebook JSON; an error message (never a throw) when it is not a notebook. */
export function parseNotebook(
  text: string,
): { ok: true; notebook: Notebook } | { ok: false; message: string } {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return { ok: false, message: `not valid JSON (${(error as Error).message})` }
  }
  if (typeof parsed !== 'object' || parsed === null || !Array.isArray((parsed as Notebook).cells)) {
    return { ok: false, message: 'no "cells" array: not a Jupyter notebook' }
  }
  return { ok: true, notebook: parsed as Notebook }
}

/** A multi-line notebook string field as one string. */
export function joinSource(source: string | string[] | undefined): string {
  return Array.isArray(source) ? source.join('') : (source ?? '')
}

/** The cell id the model uses: the cell's `id`, or `cell-<index>` for notebooks before nbformat 4.5. */
export function cellIdOf(cell: NotebookCell, index: number): string {
  return typeof cell.id === 'string' && cell.id !== '' ? cell.id : `cell-${index}`
}

const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const

/** Renders a notebook for the model: each cell with its id and type, then its outputs. */
export function renderNotebook(notebook: Notebook, vision: boolean): ToolResultContent[] {
  const language = notebook.metadata?.language_info?.name ?? 'python'
  const blocks: ToolResultContent[] = []
  let text = ''
  notebook.cells.forEach((cell, index) => {
    const id = cellIdOf(cell, index)
    const count =
      cell.cell_type === 'code' && typeof cell.execution_count === 'number'
        ? ` execution_count=${cell.execution_count}`
        : ''
    text += `<cell id="${id}" type="${cell.cell_type}"${cell.cell_type === 'code' ? ` language="${language}"` : ''}${count}>\n`
    text += `${joinSource(cell.source)}\n</cell>\n`
    for (const output of cell.outputs ?? []) {
      const rendered = renderOutput(output)
      if (rendered !== '') text += `<output cell="${id}">\n${rendered}\n</output>\n`
      for (const mediaType of IMAGE_TYPES) {
        const data = output.data?.[mediaType]
        if (data === undefined) continue
        if (vision) {
          blocks.push({ type: 'text', text })
          text = ''
          blocks.push({
            type: 'image',
            source: { type: 'base64', mediaType, data: joinSource(data).replace(/\s/g, '') },
          })
        } else {
          text += `<output cell="${id}">[${mediaType} image omitted: the model has no vision]</output>\n`
        }
      }
    }
  })
  if (text !== '' || blocks.length === 0)
    blocks.push({ type: 'text', text: text === '' ? '(The notebook has no cells.)' : text })
  return blocks
}

function renderOutput(output: NotebookOutput): string {
  switch (output.output_type) {
    case 'stream':
      return joinSource(output.text).replace(ANSI, '').trimEnd()
    case 'execute_result':
    case 'display_data':
      return joinSource(output.data?.['text/plain']).trimEnd()
    case 'error':
      return [`${output.ename ?? 'Error'}: ${output.evalue ?? ''}`, ...(output.traceback ?? [])]
        .join('\n')
        .replace(ANSI, '')
    default:
      return ''
  }
}
