import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { checkDependencies, packageOf } from './dependencies.js'

const repoRoot = join(import.meta.dirname, '..', '..')

describe('declared dependencies', () => {
  it('are exactly the used ones in every package and app', () => {
    expect(checkDependencies(repoRoot)).toEqual([])
  })

  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = undefined
  })

  function plant(manifest: object, files: Record<string, string>): string {
    dir = mkdtempSync(join(tmpdir(), 'z-deps-'))
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ devDependencies: { vitest: '1' } }))
    mkdirSync(join(dir, 'packages/demo/src'), { recursive: true })
    writeFileSync(join(dir, 'packages/demo/package.json'), JSON.stringify({ name: '@z/demo', ...manifest }))
    for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, 'packages/demo', path), text)
    return dir
  }

  it('fails on a dependency nothing imports and on an import nothing declares', () => {
    const root = plant(
      { dependencies: { yaml: '1', unused: '1' }, devDependencies: { 'dev-unused': '1' } },
      {
        'src/index.ts':
          "import { parse } from 'yaml'\nimport { x } from 'undeclared/sub'\nexport const a = [parse, x]",
        'src/index.test.ts': "import { it } from 'vitest'\nimport 'test-only'\nconst data = \"require('z')\"",
      },
    )
    expect(checkDependencies(root).map((problem) => problem.message)).toEqual([
      "'undeclared' is imported by runtime code but is not in dependencies",
      "'test-only' is imported by tests or scripts but declared nowhere",
      "dependency 'unused' is never used by runtime code",
      "devDependency 'dev-unused' is never used",
    ])
  })

  it('names the package of a specifier', () => {
    expect(packageOf('@scope/name/deep/path')).toBe('@scope/name')
    expect(packageOf('name/sub')).toBe('name')
    expect(packageOf('node:fs')).toBeUndefined()
    expect(packageOf('fs/promises')).toBeUndefined()
    expect(packageOf('./local.js')).toBeUndefined()
  })
})
