import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { packageSourceDirs } from './cycles.js'
import {
  findSizeOffenders,
  functionLengths,
  MAX_FILE_LINES,
  MAX_FUNCTION_LINES,
  offenderKey,
} from './size.js'

const repoRoot = join(import.meta.dirname, '..', '..')

describe('size limits', () => {
  // No list of known offenders: the last were split (issue 41), and a new one is split, not listed.
  it(`no file over ${MAX_FILE_LINES} lines and no function over ${MAX_FUNCTION_LINES}, tests aside`, () => {
    const offenders = findSizeOffenders(repoRoot, packageSourceDirs(repoRoot))
    expect(
      offenders.map((offender) => `${offenderKey(offender)}: ${offender.lines} lines`),
      'over the limit: split along a seam (test/boundary/size.ts)',
    ).toEqual([])
  })

  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = undefined
  })

  function body(lines: number): string {
    return Array.from({ length: lines }, (_, index) => `  const v${index} = ${index}`).join('\n')
  }

  it('fails on a planted long file and long functions of every kind, tests and fixtures aside', () => {
    dir = mkdtempSync(join(tmpdir(), 'z-size-'))
    const src = join(dir, 'packages/demo/src')
    mkdirSync(join(src, 'fixtures'), { recursive: true })
    writeFileSync(join(dir, 'packages/demo/package.json'), '{}')
    // 151 lines: the declaration line, 149 body lines, the closing brace.
    writeFileSync(join(src, 'long-function.ts'), `export function long() {\n${body(149)}\n}\n`)
    writeFileSync(join(src, 'fits.ts'), `export function fits() {\n${body(148)}\n}\n`)
    writeFileSync(
      join(src, 'kinds.tsx'),
      [
        `export const arrow = () => {\n${body(149)}\n}`,
        `export class Box {\n  method() {\n${body(149)}\n  }\n}`,
        `export function outer() {\n  return function () {\n${body(149)}\n  }\n}`,
        `run(() => {\n${body(149)}\n})`,
      ].join('\n'),
    )
    writeFileSync(join(src, 'long-file.ts'), `${'export const x = 1\n'.repeat(MAX_FILE_LINES + 1)}`)
    writeFileSync(join(src, 'exact-file.ts'), `${'export const y = 1\n'.repeat(MAX_FILE_LINES)}`)
    writeFileSync(join(src, 'long.test.ts'), `${'export const z = 1\n'.repeat(MAX_FILE_LINES + 1)}`)
    writeFileSync(join(src, 'fixtures/long.ts'), `${'export const z = 1\n'.repeat(MAX_FILE_LINES + 1)}`)

    const offenders = findSizeOffenders(dir, packageSourceDirs(dir))
    expect(offenders.map((offender) => `${offenderKey(offender)} ${offender.lines}`)).toEqual([
      'packages/demo/src/kinds.tsx 608',
      'packages/demo/src/kinds.tsx#arrow 151',
      'packages/demo/src/kinds.tsx#Box.method 151',
      'packages/demo/src/kinds.tsx#outer 153',
      'packages/demo/src/kinds.tsx#outer.<returned> 151',
      'packages/demo/src/kinds.tsx#run(…) callback 151',
      `packages/demo/src/long-file.ts ${MAX_FILE_LINES + 1}`,
      'packages/demo/src/long-function.ts#long 151',
    ])
  })

  it('counts a function from its first line to its last, comments above it aside', () => {
    const text = '/** Doc. */\nexport async function f(\n  a: number,\n) {\n  return a\n}\n'
    expect(functionLengths(text)).toEqual([{ name: 'f', line: 2, lines: 5 }])
  })
})
