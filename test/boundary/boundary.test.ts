import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkBoundaries, specifiersOf } from './check.js'

const repoRoot = join(import.meta.dirname, '..', '..')
const fixtures = join(import.meta.dirname, 'fixtures')

describe('package boundaries (DESIGN.md table)', () => {
  it('hold on this repository', () => {
    expect(checkBoundaries(repoRoot)).toEqual([])
  })

  it('pass the clean fixture', () => {
    expect(checkBoundaries(join(fixtures, 'clean'))).toEqual([])
  })

  const forbidden = readdirSync(fixtures).filter((name) => name !== 'clean')
  it.each(forbidden)('fail on fixture %s', (name) => {
    const violations = checkBoundaries(join(fixtures, name))
    expect(violations.length).toBeGreaterThan(0)
    expect(violations[0]!.file).toMatch(/^packages\//)
  })

  it('names the offending specifier', () => {
    const [violation] = checkBoundaries(join(fixtures, 'policy-imports-fs'))
    expect(violation?.message).toContain("'node:fs'")
  })
})

describe('specifiersOf', () => {
  it('finds static, type, re-export, dynamic and require specifiers but not comments', () => {
    const source = [
      "import a from 'a'",
      "import type { B } from 'b'",
      "import 'c'",
      "export { d } from 'd'",
      "const e = await import('e')",
      "const f = require('f')",
      "// import g from 'g'",
      "/* import h from 'h' */",
      'import {',
      '  i,',
      "} from 'i'",
    ].join('\n')
    expect(specifiersOf(source)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'i'])
  })
})
