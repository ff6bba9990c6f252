import { render } from 'ink-testing-library'
import { createElement } from 'react'
import { describe, expect, it } from 'vitest'
import { Markdown, parseMarkdown } from '../../src/tui/markdown.js'
import { splitRow } from '../../src/tui/markdown-table.js'

const TABLE = [
  'Sizes:',
  '',
  '| File | Lines | Status |',
  '|:-----|------:|:------:|',
  '| `a.ts` | 12 | **ok** |',
  '| b.test.ts | 1200 |',
  '',
  'Done.',
].join('\n')

function frameOf(source: string): string {
  const app = render(createElement(Markdown, { source }))
  const frame = app.lastFrame() ?? ''
  app.unmount()
  return frame
}

describe('markdown pipe tables', () => {
  it('parses a header, alignments and rows (short rows padded, escaped pipes kept)', () => {
    const table = parseMarkdown(TABLE).find((block) => block.type === 'table')
    expect(table).toMatchObject({
      type: 'table',
      table: {
        header: ['File', 'Lines', 'Status'],
        align: ['left', 'right', 'center'],
        rows: [
          ['`a.ts`', '12', '**ok**'],
          ['b.test.ts', '1200', ''],
        ],
      },
    })
    expect(splitRow('| a \\| b | c |')).toEqual(['a | b', 'c'])
    // A line with a pipe but no delimiter row under it stays a paragraph.
    expect(parseMarkdown('a | b\nc | d').map((block) => block.type)).toEqual(['paragraph', 'paragraph'])
  })

  it('draws aligned columns with a rule under the header, markup drawn, not counted', () => {
    const lines = frameOf(TABLE).split('\n')
    const at = lines.findIndex((line) => line.includes('File'))
    expect(lines.slice(at, at + 4)).toEqual([
      'File      │ Lines │ Status',
      '──────────┼───────┼───────',
      'a.ts      │    12 │   ok',
      'b.test.ts │  1200 │',
    ])
    expect(lines).toContain('Done.')
    expect(lines.join('\n')).not.toContain('|')
  })

  it('prints a table wider than the terminal as its source', () => {
    const wide = `| ${'x'.repeat(60)} | ${'y'.repeat(60)} |\n|---|---|\n| 1 | 2 |`
    const frame = frameOf(wide)
    expect(frame).toContain(`| ${'x'.repeat(60)} |`)
    expect(frame).toContain('|---|---|')
    expect(frame).not.toContain('┼')
  })
})
