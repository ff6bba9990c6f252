import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { callTool, makeTestCtx, resultText, type TestCtx } from '../testing.js'
import { readTool } from './read.js'

let ctx: TestCtx
beforeEach(() => {
  ctx = makeTestCtx()
})
afterEach(() => ctx.cleanup())

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

describe('Read', () => {
  it('numbers lines like cat -n and records the read', async () => {
    writeFileSync(join(ctx.projectRoot, 'a.txt'), 'one\ntwo\nthree\n')
    const result = await callTool(readTool, { file_path: 'a.txt' }, ctx)
    expect(resultText(result)).toBe('     1\tone\n     2\ttwo\n     3\tthree')
    const snapshot = ctx.fileTracker.lastRead(join(ctx.projectRoot, 'a.txt'))
    expect(snapshot).toMatchObject({ size: 14, partial: false })
  })
  it('reads a range with offset and limit and says how to continue', async () => {
    writeFileSync(
      join(ctx.projectRoot, 'a.txt'),
      Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n'),
    )
    const text = resultText(await callTool(readTool, { file_path: 'a.txt', offset: 3, limit: 2 }, ctx))
    expect(text).toContain('     3\tline 3\n     4\tline 4')
    expect(text).not.toContain('line 5')
    expect(text).toContain('offset=5')
    expect(ctx.fileTracker.lastRead(join(ctx.projectRoot, 'a.txt'))?.partial).toBe(true)
  })
  it('reports an offset past the end and an empty file', async () => {
    writeFileSync(join(ctx.projectRoot, 'a.txt'), 'x\n')
    expect(resultText(await callTool(readTool, { file_path: 'a.txt', offset: 9 }, ctx))).toContain(
      'only 1 lines',
    )
    writeFileSync(join(ctx.projectRoot, 'empty.txt'), '')
    expect(resultText(await callTool(readTool, { file_path: 'empty.txt' }, ctx))).toContain('is empty')
  })
  it('shows CRLF files without carriage returns and cuts very long lines', async () => {
    writeFileSync(join(ctx.projectRoot, 'w.txt'), `a\r\n${'x'.repeat(2500)}\r\n`)
    const text = resultText(await callTool(readTool, { file_path: 'w.txt' }, ctx))
    expect(text).not.toContain('\r')
    expect(text).toContain('[line cut: 500 more characters]')
  })
  it('gives a helpful error for a directory, a missing file and a binary file', async () => {
    mkdirSync(join(ctx.projectRoot, 'src'))
    const dir = await callTool(readTool, { file_path: 'src' }, ctx)
    expect(dir.ok).toBe(false)
    expect(resultText(dir)).toMatch(/is a directory.*Glob/)
    writeFileSync(join(ctx.projectRoot, 'config.json'), '{}')
    const missing = await callTool(readTool, { file_path: 'config.jsn' }, ctx)
    expect(!missing.ok && missing.error.code).toBe('not_found')
    expect(resultText(missing)).toContain('Did you mean')
    expect(resultText(missing)).toContain('config.json')
    writeFileSync(join(ctx.projectRoot, 'b.bin'), Buffer.from([1, 2, 0, 4]))
    const binary = await callTool(readTool, { file_path: 'b.bin' }, ctx)
    expect(!binary.ok && binary.error.code).toBe('binary')
  })
  it('refuses a large file without a range but reads a part of it', async () => {
    const small = makeTestCtx({ root: ctx.projectRoot, limits: { readMaxBytes: 100 } })
    writeFileSync(join(ctx.projectRoot, 'big.txt'), 'abcdefghij\n'.repeat(50))
    const refused = await callTool(readTool, { file_path: 'big.txt' }, small)
    expect(!refused.ok && refused.error.code).toBe('too_large')
    expect(resultText(refused)).toContain('offset and limit')
    const part = await callTool(readTool, { file_path: 'big.txt', offset: 49, limit: 5 }, small)
    expect(resultText(part)).toContain('    50\tabcdefghij')
  })
  it('returns images as image blocks with vision and refuses without', async () => {
    writeFileSync(join(ctx.projectRoot, 'p.png'), PNG)
    const result = await callTool(readTool, { file_path: 'p.png' }, ctx)
    expect(result.ok && result.output.content[1]).toMatchObject({
      type: 'image',
      source: { type: 'base64', mediaType: 'image/png' },
    })
    const blind = makeTestCtx({ root: ctx.projectRoot, vision: false })
    const refused = await callTool(readTool, { file_path: 'p.png' }, blind)
    expect(!refused.ok && refused.error.code).toBe('no_vision')
  })
  it('renders notebooks with cell ids and outputs', async () => {
    const notebook = {
      cells: [
        { cell_type: 'markdown', id: 'intro', source: ['# Title\n', 'text'], metadata: {} },
        {
          cell_type: 'code',
          id: 'c1',
          source: 'print(1)',
          execution_count: 1,
          metadata: {},
          outputs: [{ output_type: 'stream', name: 'stdout', text: ['1\n'] }],
        },
      ],
      metadata: { language_info: { name: 'python' } },
      nbformat: 4,
      nbformat_minor: 5,
    }
    writeFileSync(join(ctx.projectRoot, 'n.ipynb'), JSON.stringify(notebook))
    const text = resultText(await callTool(readTool, { file_path: 'n.ipynb' }, ctx))
    expect(text).toContain('<cell id="intro" type="markdown">\n# Title\ntext\n</cell>')
    expect(text).toContain(
      '<cell id="c1" type="code" language="python" execution_count=1>\nprint(1)\n</cell>',
    )
    expect(text).toContain('<output cell="c1">\n1\n</output>')
  })
  it('spills a result over the limit and names the artifact', async () => {
    const small = makeTestCtx({ root: ctx.projectRoot, limits: { maxResultChars: 200 } })
    writeFileSync(
      join(ctx.projectRoot, 'many.txt'),
      Array.from({ length: 100 }, (_, i) => `row ${i}`).join('\n'),
    )
    const text = resultText(await callTool(readTool, { file_path: 'many.txt' }, small))
    expect(small.spilled).toHaveLength(1)
    expect(text).toContain(small.spilled[0]!.path)
    expect(text).toContain('     1\trow 0')
    expect(text).not.toContain('row 99')
  })
})
