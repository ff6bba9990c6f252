/** GitHub-style pipe tables: recognised in markdown source and laid out as aligned columns. */

/** How a column's cells are aligned (from the delimiter row's colons). */
export type ColumnAlign = 'left' | 'center' | 'right'

/** A parsed pipe table: header cells, alignment per column, body rows (each as wide as the header). */
export interface MarkdownTable {
  header: string[]
  align: ColumnAlign[]
  rows: string[][]
  /** The source lines, printed as they are when the table is wider than the terminal. */
  raw: string[]
}

/** Splits one table line into trimmed cells; `\|` is a literal pipe, outer pipes are optional. */
export function splitRow(line: string): string[] {
  let body = line.trim()
  if (body.startsWith('|')) body = body.slice(1)
  if (body.endsWith('|') && !body.endsWith('\\|')) body = body.slice(0, -1)
  const cells: string[] = []
  let current = ''
  for (let index = 0; index < body.length; index++) {
    const char = body[index]
    if (char === '\\' && body[index + 1] === '|') {
      current += '|'
      index++
    } else if (char === '|') {
      cells.push(current.trim())
      current = ''
    } else current += char
  }
  cells.push(current.trim())
  return cells
}

const DELIMITER_CELL = /^:?-+:?$/

/** The alignments a delimiter row (`|---|:-:|--:|`) declares, or undefined when the line is not one. */
function delimiterAligns(line: string): ColumnAlign[] | undefined {
  if (!line.includes('-') || !/^[\s|:-]+$/.test(line)) return undefined
  const cells = splitRow(line)
  if (!cells.every((cell) => DELIMITER_CELL.test(cell))) return undefined
  return cells.map((cell) =>
    cell.startsWith(':') && cell.endsWith(':') ? 'center' : cell.endsWith(':') ? 'right' : 'left',
  )
}

/**
 * Reads a table starting at `lines[start]`: a header row with pipes, a delimiter row with as many
 * cells, then every following non-blank row with a pipe. Returns the table and the lines it used.
 */
export function readTable(
  lines: readonly string[],
  start: number,
): { table: MarkdownTable; used: number } | undefined {
  const headerLine = lines[start] ?? ''
  if (!headerLine.includes('|')) return undefined
  const align = delimiterAligns(lines[start + 1] ?? '')
  const header = splitRow(headerLine)
  if (align === undefined || align.length !== header.length) return undefined
  const rows: string[][] = []
  let index = start + 2
  for (; index < lines.length; index++) {
    const line = lines[index] ?? ''
    if (line.trim() === '' || !line.includes('|')) break
    const cells = splitRow(line)
    // GitHub pads short rows with empty cells and drops cells past the header's count.
    rows.push(header.map((_, column) => cells[column] ?? ''))
  }
  return { table: { header, align, rows, raw: lines.slice(start, index) }, used: index - start }
}

/** Columns between two cells (` │ `). */
export const COLUMN_GAP = 3

/**
 * Each column's width in terminal cells, given how wide a cell's text shows (markup stripped), or
 * undefined when the aligned table would not fit in `maxWidth` columns (the raw source is shown then).
 */
export function columnWidths(
  table: MarkdownTable,
  shownWidth: (cell: string) => number,
  maxWidth: number,
): number[] | undefined {
  const widths = table.header.map((cell, column) =>
    Math.max(1, shownWidth(cell), ...table.rows.map((row) => shownWidth(row[column] ?? ''))),
  )
  const total = widths.reduce((sum, width) => sum + width, 0) + COLUMN_GAP * (widths.length - 1)
  return total <= maxWidth ? widths : undefined
}

/** The spaces before and after a cell's text to fill its column with the given alignment. */
export function cellPadding(align: ColumnAlign, width: number, textWidth: number): [number, number] {
  const free = Math.max(0, width - textWidth)
  switch (align) {
    case 'left':
      return [0, free]
    case 'right':
      return [free, 0]
    case 'center':
      return [Math.floor(free / 2), free - Math.floor(free / 2)]
    default: {
      const unreachable: never = align
      return unreachable
    }
  }
}
