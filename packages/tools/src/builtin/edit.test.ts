import { readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { callTool, makeTestCtx, resultText, type TestCtx } from '../testing.js'
import { editTool } from './edit.js'
import { multiEditTool } from './multi-edit.js'
import { readTool } from './read.js'
import { writeTool } from './write.js'

let ctx: TestCtx
let file: string
beforeEach(() => {
  ctx = makeTestCtx()
  file = join(ctx.projectRoot, 'f.ts')
})
afterEach(() => ctx.cleanup())

async function readFirst(path = file): Promise<void> {
  const result = await callTool(readTool, { file_path: path }, ctx)
  expect(result.ok).toBe(true)
}

describe('Edit', () => {
  it('replaces a unique match, reports the change and shows the new lines', async () => {
    writeFileSync(file, 'const a = 1\nconst b = 2\n')
    await readFirst()
    const result = await callTool(
      editTool,
      { file_path: file, old_string: 'b = 2', new_string: 'b = 3' },
      ctx,
    )
    expect(result.ok).toBe(true)
    expect(readFileSync(file, 'utf8')).toBe('const a = 1\nconst b = 3\n')
    expect(result.ok && result.output.changedFiles).toEqual([file])
    expect(resultText(result)).toContain('     2\tconst b = 3')
    // The tool's own write counts as read: a second edit needs no new Read.
    const again = await callTool(editTool, { file_path: file, old_string: 'a = 1', new_string: 'a = 0' }, ctx)
    expect(again.ok).toBe(true)
  })
  it('refuses a file that was not read', async () => {
    writeFileSync(file, 'x\n')
    const result = await callTool(editTool, { file_path: file, old_string: 'x', new_string: 'y' }, ctx)
    expect(!result.ok && result.error.code).toBe('not_read')
    expect(resultText(result)).toContain('Read it first')
  })
  it('refuses after an external change, with a clear message', async () => {
    writeFileSync(file, 'x\n')
    await readFirst()
    writeFileSync(file, 'x changed\n')
    const result = await callTool(editTool, { file_path: file, old_string: 'x', new_string: 'y' }, ctx)
    expect(!result.ok && result.error.code).toBe('stale')
    expect(resultText(result)).toContain('modified since it was last read')
    expect(readFileSync(file, 'utf8')).toBe('x changed\n')
  })
  it('allows an edit after a touch that did not change the content', async () => {
    writeFileSync(file, 'x\n')
    await readFirst()
    utimesSync(file, new Date(), new Date(Date.now() + 5_000))
    expect((await callTool(editTool, { file_path: file, old_string: 'x', new_string: 'y' }, ctx)).ok).toBe(
      true,
    )
  })
  it('keeps CRLF line endings when the model sends LF', async () => {
    writeFileSync(file, 'one\r\ntwo\r\nthree\r\n')
    await readFirst()
    const result = await callTool(
      editTool,
      { file_path: file, old_string: 'one\ntwo', new_string: 'uno\ndos\nmas' },
      ctx,
    )
    expect(result.ok).toBe(true)
    expect(readFileSync(file, 'utf8')).toBe('uno\r\ndos\r\nmas\r\nthree\r\n')
  })
  it('keeps a UTF-8 BOM and UTF-16LE encoding', async () => {
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('héllo\n')]))
    await readFirst()
    expect(
      (await callTool(editTool, { file_path: file, old_string: 'héllo', new_string: 'hé' }, ctx)).ok,
    ).toBe(true)
    const bytes = readFileSync(file)
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    expect(bytes.subarray(3).toString('utf8')).toBe('hé\n')

    const wide = join(ctx.projectRoot, 'w.txt')
    writeFileSync(wide, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('abc\r\n', 'utf16le')]))
    await readFirst(wide)
    expect((await callTool(editTool, { file_path: wide, old_string: 'b', new_string: 'B' }, ctx)).ok).toBe(
      true,
    )
    expect(readFileSync(wide)).toEqual(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('aBc\r\n', 'utf16le')]),
    )
  })
  it('refuses an ambiguous match with the lines, and replace_all changes all', async () => {
    writeFileSync(file, 'foo\nbar\nfoo\n')
    await readFirst()
    const ambiguous = await callTool(editTool, { file_path: file, old_string: 'foo', new_string: 'baz' }, ctx)
    expect(!ambiguous.ok && ambiguous.error.code).toBe('ambiguous')
    expect(resultText(ambiguous)).toContain('lines 1, 3')
    const all = await callTool(
      editTool,
      { file_path: file, old_string: 'foo', new_string: '$&x', replace_all: true },
      ctx,
    )
    expect(all.ok).toBe(true)
    expect(readFileSync(file, 'utf8')).toBe('$&x\nbar\n$&x\n')
  })
  it('matches straight quotes against typographic ones in the file', async () => {
    writeFileSync(file, 'const s = “hello” // it’s\n')
    await readFirst()
    const result = await callTool(
      editTool,
      { file_path: file, old_string: '"hello" // it\'s', new_string: '"bye"' },
      ctx,
    )
    expect(result.ok).toBe(true)
    expect(readFileSync(file, 'utf8')).toBe('const s = "bye"\n')
  })
  it('shows the closest lines when old_string is not found', async () => {
    writeFileSync(
      file,
      'function add(a, b) {\n    return a + b\n}\n\nfunction sub(a, b) {\n  return a - b\n}\n',
    )
    await readFirst()
    const result = await callTool(
      editTool,
      { file_path: file, old_string: 'function sub(a, b) {\n    return a - b\n}', new_string: 'x' },
      ctx,
    )
    expect(!result.ok && result.error.code).toBe('not_found')
    const text = resultText(result)
    expect(text).toContain('Lines 5-7 differs from old_string only in whitespace')
    expect(text).toContain('     6\t  return a - b')
  })
  it('rejects identical strings and creates a new file from an empty old_string', async () => {
    writeFileSync(file, 'x\n')
    await readFirst()
    const same = await callTool(editTool, { file_path: file, old_string: 'x', new_string: 'x' }, ctx)
    expect(!same.ok && same.error.code).toBe('no_change')
    const created = join(ctx.projectRoot, 'new/dir/n.txt')
    const result = await callTool(
      editTool,
      { file_path: created, old_string: '', new_string: 'hello\n' },
      ctx,
    )
    expect(result.ok).toBe(true)
    expect(readFileSync(created, 'utf8')).toBe('hello\n')
    const missing = await callTool(
      editTool,
      { file_path: join(ctx.projectRoot, 'nope'), old_string: 'a', new_string: 'b' },
      ctx,
    )
    expect(!missing.ok && missing.error.code).toBe('not_found')
  })
  it('previews a unified diff without writing', async () => {
    writeFileSync(file, 'a\nb\n')
    const preview = await editTool.preview({ file_path: file, old_string: 'b', new_string: 'c' }, ctx)
    expect(preview).toMatchObject({ type: 'diff', path: file })
    expect(preview?.type === 'diff' && preview.unifiedDiff).toContain('-b\n+c')
    expect(readFileSync(file, 'utf8')).toBe('a\nb\n')
  })
  it('maps to a write action through actionFor and is not read-only', () => {
    expect(editTool.action({ file_path: 'f.ts', old_string: 'a', new_string: 'b' }, ctx)).toEqual({
      type: 'write',
      paths: [file],
    })
    expect(editTool.isReadOnly({ file_path: file, old_string: '', new_string: '' })).toBe(false)
    expect(editTool.title({ file_path: file, old_string: '', new_string: '' }, ctx)).toBe('Edit f.ts')
  })
  it('serializes concurrent edits to the same file through path locks', async () => {
    writeFileSync(file, 'a\nb\n')
    await readFirst()
    const results = await Promise.all([
      callTool(editTool, { file_path: file, old_string: 'a', new_string: 'A' }, ctx),
      callTool(editTool, { file_path: file, old_string: 'b', new_string: 'B' }, ctx),
    ])
    expect(results.every((result) => result.ok)).toBe(true)
    expect(readFileSync(file, 'utf8')).toBe('A\nB\n')
  })
})

describe('MultiEdit', () => {
  it('applies edits in order', async () => {
    writeFileSync(file, 'let x = 1\nlet y = 2\n')
    await readFirst()
    const result = await callTool(
      multiEditTool,
      {
        file_path: file,
        edits: [
          { old_string: 'let x', new_string: 'const x' },
          { old_string: 'const x = 1', new_string: 'const x = 10' },
          { old_string: 'let', new_string: 'var', replace_all: true },
        ],
      },
      ctx,
    )
    expect(result.ok).toBe(true)
    expect(readFileSync(file, 'utf8')).toBe('const x = 10\nvar y = 2\n')
  })
  it('writes nothing when any edit fails, and names the edit', async () => {
    writeFileSync(file, 'a\nb\n')
    await readFirst()
    const result = await callTool(
      multiEditTool,
      {
        file_path: file,
        edits: [
          { old_string: 'a', new_string: 'A' },
          { old_string: 'zzz', new_string: 'Z' },
        ],
      },
      ctx,
    )
    expect(!result.ok && result.error.code).toBe('not_found')
    expect(resultText(result)).toContain('Edit 2 of 2')
    expect(readFileSync(file, 'utf8')).toBe('a\nb\n')
  })
})

describe('Write', () => {
  it('creates a new file with parent folders', async () => {
    const path = join(ctx.projectRoot, 'deep/er/new.txt')
    const result = await callTool(writeTool, { file_path: path, content: 'hi\n' }, ctx)
    expect(result.ok && result.output.changedFiles).toEqual([path])
    expect(readFileSync(path, 'utf8')).toBe('hi\n')
  })
  it('requires a read before overwriting and refuses stale content', async () => {
    writeFileSync(file, 'old\n')
    const refused = await callTool(writeTool, { file_path: file, content: 'new\n' }, ctx)
    expect(!refused.ok && refused.error.code).toBe('not_read')
    await readFirst()
    writeFileSync(file, 'other\n')
    const stale = await callTool(writeTool, { file_path: file, content: 'new\n' }, ctx)
    expect(!stale.ok && stale.error.code).toBe('stale')
    await readFirst()
    expect((await callTool(writeTool, { file_path: file, content: 'new\n' }, ctx)).ok).toBe(true)
    expect(readFileSync(file, 'utf8')).toBe('new\n')
  })
  it('keeps CRLF and BOM of the file it replaces', async () => {
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a\r\nb\r\n')]))
    await readFirst()
    expect((await callTool(writeTool, { file_path: file, content: 'x\ny\n' }, ctx)).ok).toBe(true)
    expect(readFileSync(file)).toEqual(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('x\r\ny\r\n')]),
    )
  })
  it('previews the whole change as a diff', async () => {
    writeFileSync(file, 'a\n')
    const preview = await writeTool.preview({ file_path: file, content: 'b\n' }, ctx)
    expect(preview?.type === 'diff' && preview.unifiedDiff).toContain('-a\n+b')
  })
})
