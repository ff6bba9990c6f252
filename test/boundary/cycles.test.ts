import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { findImportCycles, packageSourceDirs } from './cycles.js'

const repoRoot = join(import.meta.dirname, '..', '..')

describe('import circles', () => {
  it('none in any package or app', () => {
    expect(findImportCycles(repoRoot, packageSourceDirs(repoRoot))).toEqual([])
  })

  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = undefined
  })

  function plant(files: Record<string, string>): string {
    dir = mkdtempSync(join(tmpdir(), 'z-cycles-'))
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, 'packages/demo/src', path, '..'), { recursive: true })
      writeFileSync(join(dir, 'packages/demo/src', path), text)
    }
    writeFileSync(join(dir, 'packages/demo/package.json'), '{}')
    return dir
  }

  it('fails on a planted circle, type-only imports included', () => {
    const root = plant({
      'a.ts': "import { b } from './nested/b.js'\nexport const a = b",
      'nested/b.ts': "import type { C } from '../c.js'\nexport const b: C = 1",
      'c.ts': "import { a } from './a.js'\nexport type C = typeof a",
      'free.ts': "import { a } from './a.js'\nexport const free = a",
    })
    expect(findImportCycles(root, packageSourceDirs(root))).toEqual([
      { files: ['packages/demo/src/a.ts', 'packages/demo/src/c.ts', 'packages/demo/src/nested/b.ts'] },
    ])
  })

  it('passes a tree whose imports run one way', () => {
    const root = plant({
      'a.ts': "import { b } from './b.js'\nexport const a = b",
      'b.ts': "// import { a } from './a.js'\nexport const b = 1",
    })
    expect(findImportCycles(root, packageSourceDirs(root))).toEqual([])
  })
})
