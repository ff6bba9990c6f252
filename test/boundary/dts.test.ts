import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const repoRoot = join(import.meta.dirname, '..', '..')

/** Every package's built declaration files (`pnpm build` writes them before the tests run). */
function declarationFiles(): Array<{ pkg: string; file: string }> {
  const found: Array<{ pkg: string; file: string }> = []
  for (const parent of ['packages', 'apps']) {
    for (const name of readdirSync(join(repoRoot, parent))) {
      const manifest = join(repoRoot, parent, name, 'package.json')
      if (!existsSync(manifest)) continue
      const types = JSON.stringify(JSON.parse(readFileSync(manifest, 'utf8')).exports ?? {})
      if (!types.includes('.d.ts')) continue
      const dist = join(repoRoot, parent, name, 'dist')
      if (!existsSync(dist)) throw new Error(`${parent}/${name} has no dist/: run pnpm build first`)
      for (const file of readdirSync(dist)) {
        if (file.endsWith('.d.ts')) found.push({ pkg: `${parent}/${name}`, file: join(dist, file) })
      }
    }
  }
  return found
}

describe('built declarations', () => {
  it('expose no @internal member in any package', () => {
    const files = declarationFiles()
    expect(files.length).toBeGreaterThan(0)
    const offenders = files.filter(({ file }) => readFileSync(file, 'utf8').includes('@internal'))
    expect(offenders.map(({ file }) => file.slice(repoRoot.length + 1))).toEqual([])
  })
})
