import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { findRipgrep } from '../search/grep-ripgrep.js'
import { callTool, makeTestCtx, resultText, type TestCtx } from '../testing.js'
import { createGlobTool } from './glob.js'
import { createGrepTool } from './grep.js'

let ctx: TestCtx
const write = (path: string, content: string, ageSeconds = 0): void => {
  const full = join(ctx.projectRoot, path)
  mkdirSync(dirname(full), { recursive: true })
  writeFileSync(full, content)
  const time = new Date(Date.now() - ageSeconds * 1000)
  utimesSync(full, time, time)
}

beforeEach(() => {
  ctx = makeTestCtx()
  write('.gitignore', 'dist/\n')
  write('src/old.ts', 'export const a = 1 // TODO old\n', 300)
  write('src/new.ts', 'export const b = 2 // TODO new\nexport const c = 3\n', 10)
  write('src/deep/x.test.ts', 'test("TODO deep")\n', 100)
  write('README.md', '# TODO readme\n', 200)
  write('dist/bundle.js', 'TODO built\n')
})
afterEach(() => ctx.cleanup())

const engines = findRipgrep() ? (['builtin', 'ripgrep'] as const) : (['builtin'] as const)

describe.each(engines)('Grep (%s)', (engine) => {
  const grep = createGrepTool(engine)
  it('lists matching files newest first, skipping gitignored ones', async () => {
    const text = resultText(await callTool(grep, { pattern: 'TODO' }, ctx))
    const root = ctx.projectRoot
    expect(text).toBe(
      [
        'Found 4 files',
        `${root}/src/new.ts`,
        `${root}/src/deep/x.test.ts`,
        `${root}/README.md`,
        `${root}/src/old.ts`,
      ].join('\n'),
    )
  })
  it('shows content with line numbers and context', async () => {
    const text = resultText(
      await callTool(grep, { pattern: 'const b', output_mode: 'content', '-A': 1, path: 'src' }, ctx),
    )
    expect(text).toBe(
      `${ctx.projectRoot}/src/new.ts:1:export const b = 2 // TODO new\n${ctx.projectRoot}/src/new.ts-2-export const c = 3`,
    )
    const plain = resultText(
      await callTool(grep, { pattern: 'const b', output_mode: 'content', '-n': false, path: 'src' }, ctx),
    )
    expect(plain).toBe(`${ctx.projectRoot}/src/new.ts:export const b = 2 // TODO new`)
  })
  it('counts, filters by glob and type, ignores case', async () => {
    const count = resultText(
      await callTool(grep, { pattern: 'todo', '-i': true, output_mode: 'count', glob: '*.ts' }, ctx),
    )
    expect(count.split('\n')[0]).toBe('Found 3 matches in 3 files')
    const typed = resultText(await callTool(grep, { pattern: 'TODO', type: 'md' }, ctx))
    expect(typed).toBe(`Found 1 file\n${ctx.projectRoot}/README.md`)
  })
  it('pages with head_limit and offset', async () => {
    const first = resultText(await callTool(grep, { pattern: 'TODO', head_limit: 2 }, ctx))
    expect(first.split('\n')).toHaveLength(3)
    expect(first).toContain('use offset=2 for more')
    const next = resultText(await callTool(grep, { pattern: 'TODO', head_limit: 2, offset: 2 }, ctx))
    expect(next).toContain(`${ctx.projectRoot}/README.md`)
  })
  it('reports no matches, a bad pattern and a missing path', async () => {
    expect(resultText(await callTool(grep, { pattern: 'NOPE' }, ctx))).toBe('No files found')
    const bad = await callTool(grep, { pattern: 'foo(' }, ctx)
    expect(!bad.ok && bad.error.code).toBe('invalid_pattern')
    const missing = await callTool(grep, { pattern: 'x', path: 'nope' }, ctx)
    expect(!missing.ok && missing.error.code).toBe('not_found')
  })
  it('keeps whole result lines and spills when over budget', async () => {
    for (let index = 0; index < 200; index += 1) write(`many/f${index}.txt`, 'needle\n')
    const small = makeTestCtx({ root: ctx.projectRoot, limits: { maxResultChars: 1_000 } })
    const text = resultText(await callTool(grep, { pattern: 'needle', output_mode: 'content' }, small))
    expect(text).toContain('further results omitted')
    for (const line of text.split('\n').filter((line) => line.includes('/many/')))
      expect(line).toMatch(/f\d+\.txt:1:needle$/)
    expect(small.spilled[0]!.content.split('\n')).toHaveLength(200)
    small.cleanup()
  })
})

describe('Grep engine choice', () => {
  it('falls back to the built-in engine for look-around, which ripgrep refuses', async () => {
    const text = resultText(
      await callTool(createGrepTool('auto'), { pattern: 'const (?=b)', output_mode: 'content' }, ctx),
    )
    expect(text).toContain('src/new.ts:1:export const b')
  })
})

describe.each(engines)('Glob (%s)', (engine) => {
  const glob = createGlobTool(engine)
  it('matches recursively, newest first, gitignore-aware', async () => {
    const text = resultText(await callTool(glob, { pattern: '**/*.ts' }, ctx))
    const root = ctx.projectRoot
    expect(text).toBe([`${root}/src/new.ts`, `${root}/src/deep/x.test.ts`, `${root}/src/old.ts`].join('\n'))
  })
  it('anchors a pattern without ** at the folder, and takes a path', async () => {
    expect(resultText(await callTool(glob, { pattern: '*.md' }, ctx))).toBe(`${ctx.projectRoot}/README.md`)
    expect(resultText(await callTool(glob, { pattern: '*.ts', path: 'src' }, ctx))).toBe(
      `${ctx.projectRoot}/src/new.ts\n${ctx.projectRoot}/src/old.ts`,
    )
    expect(resultText(await callTool(glob, { pattern: 'src/**/*.test.ts' }, ctx))).toBe(
      `${ctx.projectRoot}/src/deep/x.test.ts`,
    )
  })
  it('handles absolute patterns, no results and bad paths', async () => {
    expect(resultText(await callTool(glob, { pattern: `${ctx.projectRoot}/src/*.ts` }, ctx))).toContain(
      'src/new.ts',
    )
    expect(resultText(await callTool(glob, { pattern: '**/*.rs' }, ctx))).toContain('No files found')
    const missing = await callTool(glob, { pattern: '*', path: 'nope' }, ctx)
    expect(!missing.ok && missing.error.code).toBe('not_found')
    const file = await callTool(glob, { pattern: '*', path: 'README.md' }, ctx)
    expect(!file.ok && file.error.code).toBe('not_a_directory')
  })
  it('caps the list at 100 paths', async () => {
    for (let index = 0; index < 120; index += 1) write(`gen/f${index}.txt`, '')
    const text = resultText(await callTool(glob, { pattern: 'gen/*.txt' }, ctx))
    expect(text.split('\n').filter((line) => line.endsWith('.txt'))).toHaveLength(100)
    expect(text).toContain('most recently modified of 120 files')
  })
})
