import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { bashTool } from './builtin/bash.js'
import { createGlobTool } from './builtin/glob.js'
import { createGrepTool } from './builtin/grep.js'
import { closestLines } from './closest-lines.js'
import { createFileTracker } from './file-tracker.js'
import { shapeOutput } from './output-budget.js'
import { createPathLocks } from './path-locks.js'
import { callTool, makeTestCtx, resultText } from './testing.js'
import { decodeText, encodeText, lineEndingsOf, looksBinary } from './text-file.js'

describe('shapeOutput', () => {
  const lines = Array.from({ length: 100 }, (_, index) => `line ${index}`).join('\n')
  it('keeps short text as it is', () => {
    expect(shapeOutput('abc', 'log', 10)).toEqual({ text: 'abc', shortened: false, omittedLines: 0 })
  })
  it('keeps a short head and a long tail for logs, whole lines only', () => {
    const shaped = shapeOutput(lines, 'log', 200)
    expect(shaped.shortened).toBe(true)
    expect(shaped.text.startsWith('line 0\n')).toBe(true)
    expect(shaped.text.endsWith('line 99')).toBe(true)
    expect(shaped.text).toMatch(/\[\.\.\. \d+ lines omitted \.\.\.\]/)
    const [head, tail] = shaped.text.split(/\n\[\.\.\..*\.\.\.\]\n/)
    expect(head!.length).toBeLessThan(tail!.length)
    for (const line of shaped.text.split('\n')) expect(line).toMatch(/^line \d+$|^\[\.\.\./)
  })
  it('keeps the head of search results', () => {
    const shaped = shapeOutput(lines, 'search', 100)
    expect(shaped.text.startsWith('line 0\nline 1\n')).toBe(true)
    expect(shaped.text).toContain('further results omitted')
    expect(shaped.text).not.toContain('line 99')
  })
  it('ends search results at a group boundary', () => {
    const groups = Array.from(
      { length: 20 },
      (_, index) => `a.ts-${index * 3}-before\na.ts:${index * 3 + 1}:match\na.ts-${index * 3 + 2}-after`,
    )
    const shaped = shapeOutput(groups.join('\n--\n'), 'search', 200)
    const kept = shaped.text.split('\n[...')[0]!.split('\n')
    expect(kept.at(-1)).toMatch(/-after$/)
  })
  it('cuts one giant line by characters', () => {
    const shaped = shapeOutput('x'.repeat(1000), 'text', 100)
    expect(shaped.text.startsWith('x'.repeat(100))).toBe(true)
    expect(shaped.text).toContain('900 characters omitted')
  })
})

describe('path locks', () => {
  it('serializes work on the same path and not on different ones', async () => {
    const locks = createPathLocks()
    const order: string[] = []
    const slow = (name: string, ms: number) => async () => {
      order.push(`${name} start`)
      await new Promise((resolve) => setTimeout(resolve, ms))
      order.push(`${name} end`)
    }
    await Promise.all([
      locks.withLocks(['/a'], slow('first', 50)),
      locks.withLocks(['/a', '/b'], slow('second', 10)),
    ])
    expect(order).toEqual(['first start', 'first end', 'second start', 'second end'])
    order.length = 0
    await Promise.all([locks.withLocks(['/x'], slow('x', 50)), locks.withLocks(['/y'], slow('y', 10))])
    expect(order.indexOf('y end')).toBeLessThan(order.indexOf('x end'))
  })
  it('releases the lock when the work throws', async () => {
    const locks = createPathLocks()
    await expect(locks.withLocks(['/a'], async () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    )
    expect(await locks.withLocks(['/a'], async () => 'next')).toBe('next')
  })
})

describe('file tracker', () => {
  it('records, returns and forgets reads', () => {
    const tracker = createFileTracker()
    tracker.recordRead('/a', { mtimeMs: 1, size: 2, hash: 'h', partial: false })
    expect(tracker.lastRead('/a')?.hash).toBe('h')
    tracker.forget('/a')
    expect(tracker.lastRead('/a')).toBeUndefined()
  })
})

describe('text files', () => {
  it('round-trips encodings and BOMs and detects line endings', () => {
    for (const bytes of [
      Buffer.from('plain\n'),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('bom\r\n')]),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('wide\n', 'utf16le')]),
    ]) {
      const file = decodeText(bytes)
      expect(encodeText(file.text, file)).toEqual(bytes)
    }
    expect(lineEndingsOf('a\r\nb\r\n')).toBe('crlf')
    expect(lineEndingsOf('a\r\nb\n')).toBe('mixed')
    expect(lineEndingsOf('a')).toBe('lf')
    expect(looksBinary(Buffer.from([0x41, 0, 0x42]))).toBe(true)
    expect(looksBinary(Buffer.from('text'))).toBe(false)
  })
  it('finds the closest lines', () => {
    expect(closestLines('a\nfoo(1)\nb\n', 'foo(2)')).toMatchObject({ startLine: 2, endLine: 2 })
    expect(closestLines('alpha\nbeta\n', 'zzzzzz')).toBeUndefined()
  })
})

describe('Bash read-only and concurrency', () => {
  it('is read-only only for lines the policy proves read-only, and never concurrent with cd', () => {
    expect(bashTool.isReadOnly({ command: 'ls -la && cat README.md' })).toBe(true)
    expect(bashTool.isConcurrencySafe({ command: 'ls -la' })).toBe(true)
    expect(bashTool.isReadOnly({ command: 'rm -rf build' })).toBe(false)
    expect(bashTool.isReadOnly({ command: 'ls', run_in_background: true })).toBe(false)
    expect(bashTool.isConcurrencySafe({ command: 'cd src && ls' })).toBe(false)
  })
})

describe('Glob and Grep drop files a deny rule forbids reading', () => {
  it('filters through ctx.isReadDenied', async () => {
    const ctx = makeTestCtx()
    mkdirSync(join(ctx.projectRoot, 'sub'))
    writeFileSync(join(ctx.projectRoot, '.env'), 'TOKEN=1\n')
    writeFileSync(join(ctx.projectRoot, 'sub/a.txt'), 'TOKEN=2\n')
    ctx.isReadDenied = (path) => path.endsWith('/.env')
    const grep = resultText(await callTool(createGrepTool('builtin'), { pattern: 'TOKEN' }, ctx))
    expect(grep).toBe(`Found 1 file\n${ctx.projectRoot}/sub/a.txt`)
    const glob = resultText(await callTool(createGlobTool('builtin'), { pattern: '**/*' }, ctx))
    expect(glob).toBe(`${ctx.projectRoot}/sub/a.txt`)
    ctx.cleanup()
  })
})
