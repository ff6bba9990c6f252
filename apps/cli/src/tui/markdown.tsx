import { Box, Text, useStdout } from 'ink'
import type { ReactNode } from 'react'
import { keyed } from './keyed.js'
import { COLUMN_GAP, cellPadding, columnWidths, type MarkdownTable, readTable } from './markdown-table.js'

/** One block of light markdown: what an assistant answer usually holds. */
export type MarkdownBlock =
  | { type: 'heading'; level: number; text: string }
  | { type: 'code'; language: string; lines: string[] }
  | { type: 'bullet'; marker: string; text: string; indent: number }
  | { type: 'quote'; text: string }
  | { type: 'table'; table: MarkdownTable }
  | { type: 'paragraph'; text: string }
  | { type: 'blank' }

/** Splits markdown into blocks. An unclosed fence (text still streaming) runs to the end. */
export function parseMarkdown(source: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = []
  const lines = source.split('\n')
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? ''
    const fence = /^\s*```\s*([\w+-]*)/.exec(line)
    if (fence) {
      const code: string[] = []
      index++
      while (index < lines.length && !/^\s*```/.test(lines[index] ?? '')) code.push(lines[index++] ?? '')
      blocks.push({ type: 'code', language: fence[1] ?? '', lines: code })
      continue
    }
    const table = readTable(lines, index)
    if (table) {
      blocks.push({ type: 'table', table: table.table })
      index += table.used - 1
      continue
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line)
    if (heading) {
      blocks.push({ type: 'heading', level: heading[1]?.length ?? 1, text: heading[2] ?? '' })
      continue
    }
    const bullet = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line)
    if (bullet) {
      const marker = /\d/.test(bullet[2] ?? '') ? (bullet[2] ?? '') : '•'
      blocks.push({ type: 'bullet', marker, text: bullet[3] ?? '', indent: (bullet[1] ?? '').length })
      continue
    }
    const quote = /^>\s?(.*)$/.exec(line)
    if (quote) {
      blocks.push({ type: 'quote', text: quote[1] ?? '' })
      continue
    }
    blocks.push(line.trim() === '' ? { type: 'blank' } : { type: 'paragraph', text: line })
  }
  // Collapse runs of blank lines: a model's double spacing would otherwise waste the screen.
  return blocks.filter((block, index) => block.type !== 'blank' || blocks[index - 1]?.type !== 'blank')
}

/** One styled run of inline markdown. */
export type InlineSpan = { text: string; style: 'plain' | 'bold' | 'italic' | 'code' }

/** Splits a line into **bold**, *italic*, `code` and plain runs. */
export function parseInline(text: string): InlineSpan[] {
  const spans: InlineSpan[] = []
  const pattern = /(\*\*[^*]+\*\*|`[^`]+`|\*[^*\s][^*]*\*|_[^_\s][^_]*_)/g
  let last = 0
  for (const match of text.matchAll(pattern)) {
    const token = match[0]
    const start = match.index ?? 0
    if (start > last) spans.push({ text: text.slice(last, start), style: 'plain' })
    if (token.startsWith('**')) spans.push({ text: token.slice(2, -2), style: 'bold' })
    else if (token.startsWith('`')) spans.push({ text: token.slice(1, -1), style: 'code' })
    else spans.push({ text: token.slice(1, -1), style: 'italic' })
    last = start + token.length
  }
  if (last < text.length) spans.push({ text: text.slice(last), style: 'plain' })
  return spans
}

function Inline({ text }: { text: string }): ReactNode {
  return (
    <Text>
      {keyed(parseInline(text), 'span').map(({ key, item: span }) => {
        switch (span.style) {
          case 'bold':
            return (
              <Text key={key} bold>
                {span.text}
              </Text>
            )
          case 'italic':
            return (
              <Text key={key} italic>
                {span.text}
              </Text>
            )
          case 'code':
            return (
              <Text key={key} color="cyan">
                {span.text}
              </Text>
            )
          case 'plain':
            return <Text key={key}>{span.text}</Text>
          default: {
            const unreachable: never = span.style
            return unreachable
          }
        }
      })}
    </Text>
  )
}

/** How many terminal columns a cell's text takes once its inline markup is drawn. */
function shownWidth(cell: string): number {
  return parseInline(cell).reduce((sum, span) => sum + [...span.text].length, 0)
}

/** A pipe table as aligned columns with a rule under the header; its raw source when too wide. */
function TableView({ table, width }: { table: MarkdownTable; width: number }): ReactNode {
  const widths = columnWidths(table, shownWidth, width)
  if (widths === undefined)
    return (
      <Box flexDirection="column">
        {keyed(table.raw, 'raw').map(({ key, item: line }) => (
          <Text key={key}>{line}</Text>
        ))}
      </Box>
    )
  const gap = ' '.repeat(Math.floor(COLUMN_GAP / 2))
  const row = (cells: string[], bold: boolean) => (
    <Text wrap="truncate-end">
      {keyed(cells, 'cell').map(({ key, item: cell }, column) => {
        const [before, after] = cellPadding(
          table.align[column] ?? 'left',
          widths[column] ?? 0,
          shownWidth(cell),
        )
        return (
          <Text key={key} bold={bold}>
            {column > 0 ? `${gap}│${gap}` : ''}
            {' '.repeat(before)}
            <Inline text={cell} />
            {' '.repeat(after)}
          </Text>
        )
      })}
    </Text>
  )
  return (
    <Box flexDirection="column">
      {row(table.header, true)}
      <Text dimColor>{widths.map((columnWidth) => '─'.repeat(columnWidth)).join('─┼─')}</Text>
      {keyed(table.rows, 'row').map(({ key, item: cells }) => (
        <Box key={key}>{row(cells, false)}</Box>
      ))}
    </Box>
  )
}

function Block({ block, width }: { block: MarkdownBlock; width: number }): ReactNode {
  switch (block.type) {
    case 'heading':
      return (
        <Text bold underline={block.level === 1}>
          {block.text}
        </Text>
      )
    case 'code':
      return (
        <Box flexDirection="column" paddingLeft={2}>
          {keyed(block.lines, 'code').map(({ key, item: line }) => (
            <Text key={key} color="yellow">
              {line === '' ? ' ' : line}
            </Text>
          ))}
        </Box>
      )
    case 'bullet':
      return (
        <Box paddingLeft={block.indent}>
          {/* The marker keeps its width when the item wraps (a shrunk marker loses its space). */}
          <Box flexShrink={0} width={block.marker.length + 1}>
            <Text>{block.marker}</Text>
          </Box>
          <Inline text={block.text} />
        </Box>
      )
    case 'quote':
      return (
        <Text dimColor>
          {'│ '}
          {block.text}
        </Text>
      )
    case 'table':
      return <TableView table={block.table} width={width} />
    case 'paragraph':
      return <Inline text={block.text} />
    case 'blank':
      return <Text> </Text>
    default: {
      const unreachable: never = block
      return unreachable
    }
  }
}

/**
 * Renders light markdown: headings, fenced code, lists, quotes, pipe tables, bold, italic and inline
 * code. `inset` is how many columns the rows around it take from the terminal's width (tables fit the rest).
 */
export function Markdown({ source, inset = 2 }: { source: string; inset?: number }): ReactNode {
  const { stdout } = useStdout()
  const width = Math.max(20, (stdout.columns ?? 80) - inset)
  const blocks = parseMarkdown(source.replace(/\s+$/, ''))
  return (
    <Box flexDirection="column">
      {keyed(blocks, 'block').map(({ key, item: block }) => (
        <Block key={key} block={block} width={width} />
      ))}
    </Box>
  )
}
