import { describe, expect, it } from 'vitest'
import { countIdentifiers, importedReferences } from './outliner.js'
import { isTestPath, rankFiles } from './rank.js'
import { renderRepoMap } from './render.js'
import type { Definition, FileOutline } from './types.js'

function outline(path: string, defines: string[], source: string): FileOutline {
  const definitions: Definition[] = defines.map((name, line) => ({
    kind: 'function',
    name,
    signature: `function ${name}()`,
    depth: 0,
    line,
    exported: true,
  }))
  return { path, language: 'typescript', definitions, identifiers: countIdentifiers(source) }
}

const files = [
  outline('a.ts', ['alpha'], 'beta() beta()'),
  outline('b.ts', ['beta'], 'gamma()'),
  outline('c.ts', ['gamma'], 'alpha() delta()'),
  outline('d.ts', ['delta'], ''),
  outline('e.ts', ['epsilon'], 'beta() beta() beta()'),
]

describe('rankFiles', () => {
  it('ranks by references from other files, ties by path', () => {
    // beta: 2 (a) + 3 (e) = 5; gamma: 1; alpha: 1; delta: 1; epsilon: 0
    expect(rankFiles(files).map((file) => file.path)).toEqual(['b.ts', 'a.ts', 'c.ts', 'd.ts', 'e.ts'])
  })

  it('puts touched files first, then their neighbours, then the rest', () => {
    // d.ts is referenced by c.ts only; c.ts also references a.ts
    expect(rankFiles(files, ['d.ts']).map((file) => file.path)).toEqual([
      'd.ts',
      'c.ts',
      'b.ts',
      'a.ts',
      'e.ts',
    ])
    expect(rankFiles(files, ['e.ts', 'd.ts', 'missing.ts']).map((file) => file.path)).toEqual([
      'e.ts',
      'd.ts',
      'b.ts',
      'c.ts',
      'a.ts',
    ])
  })

  it('does not credit a file for its own references', () => {
    const self = [outline('x.ts', ['loop'], 'loop() loop() loop()'), outline('y.ts', ['other'], 'loop()')]
    expect(rankFiles(self).map((file) => file.path)).toEqual(['x.ts', 'y.ts'])
    expect(rankFiles([...self].reverse()).map((file) => file.path)).toEqual(['x.ts', 'y.ts'])
  })
})

describe('renderRepoMap', () => {
  it('renders outlines in rank order within the budget, never skipping ahead', () => {
    const ranked = rankFiles(files)
    const full = renderRepoMap(ranked, 10_000)
    expect(full.startsWith('<repository-map>')).toBe(true)
    expect(full.endsWith('</repository-map>')).toBe(true)
    expect(full).toContain('\nb.ts:\n  function beta()\n')
    expect(full.indexOf('b.ts:')).toBeLessThan(full.indexOf('a.ts:'))
    for (const budget of [0, 50, 150, 200, 250, 300]) {
      const text = renderRepoMap(ranked, budget)
      expect(text.length).toBeLessThanOrEqual(budget)
    }
    const small = renderRepoMap(ranked, 200)
    expect(small).toContain('b.ts:')
    expect(small).not.toContain('e.ts:')
    expect(renderRepoMap([outline('empty.ts', [], '')], 1000)).toBe('')
  })

  it('cuts the first file that does not fit to the lines that do', () => {
    const big = outline(
      'big.ts',
      Array.from({ length: 50 }, (_, i) => `name${i}`),
      '',
    )
    const text = renderRepoMap([big], 400)
    expect(text.length).toBeLessThanOrEqual(400)
    expect(text).toContain('big.ts:\n  function name0()\n')
    expect(text).not.toContain('name49')
  })
})

describe('isTestPath', () => {
  it('recognizes the usual test file conventions', () => {
    for (const path of [
      'a.test.ts',
      'src/a.spec.tsx',
      'pkg/x_test.go',
      'tests/t.py',
      'test_a.py',
      'a/__tests__/b.js',
      'a_test.py',
    ]) {
      expect(isTestPath(path), path).toBe(true)
    }
    for (const path of ['src/testing.ts', 'latest.ts', 'contest/a.py', 'src/attest.go']) {
      expect(isTestPath(path), path).toBe(false)
    }
  })
})

describe('importedReferences', () => {
  it('counts only imported names, bare, in JS and TS files', () => {
    const source = [
      "import { text, Message as Msg, type Usage } from '@z-engine/protocol'",
      "import defaultThing, * as ns from './x.js'",
      "export { reExported } from './y.js'",
      "const { fromRequire } = require('z')",
      'const local = text(1) + text(2) + block.text + Msg + ns.member',
      'let notImported = record(3)',
      'function f(u: Usage, d = defaultThing, r = fromRequire) {}',
    ].join('\n')
    const counts = importedReferences(source)
    expect(Object.fromEntries([...counts].sort())).toEqual({
      Message: 1,
      Msg: 2,
      Usage: 2,
      defaultThing: 2,
      fromRequire: 2,
      ns: 2,
      reExported: 1,
      text: 3,
    })
  })
})
