import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { checkFolderLayers } from './folders.js'
import { ENGINE_LAYERS } from './rules.js'

const engineSrc = join(import.meta.dirname, '..', '..', 'packages', 'engine', 'src')

describe("the engine's folder layers", () => {
  it('hold on this repository: arrows only downward, no folder circles', () => {
    expect(checkFolderLayers(engineSrc, ENGINE_LAYERS)).toEqual([])
  })

  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = undefined
  })

  function plant(files: Record<string, string>): string {
    dir = mkdtempSync(join(tmpdir(), 'z-folders-'))
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true })
      writeFileSync(join(dir, path), text)
    }
    return dir
  }

  const layers = [
    { name: 'low', folders: ['util'] },
    { name: 'middle', folders: ['model', 'session'] },
    { name: 'high', folders: ['api', '.'] },
  ]

  it('fail on a planted folder circle within one layer (type-only imports count)', () => {
    const src = plant({
      'model/client.ts': "import type { S } from '../session/state.js'\nexport type C = S",
      'session/state.ts': "import { helper } from '../model/nested/helper.js'\nexport type S = typeof helper",
      'model/nested/helper.ts': 'export const helper = 1',
    })
    expect(checkFolderLayers(src, layers)).toEqual([
      { message: 'folders import each other: model ↔ session' },
    ])
  })

  it('fail on an import from a lower layer to a higher one, naming the file', () => {
    const src = plant({
      'util/a.ts': "import { api } from '../api/entry.js'\nexport const a = api",
      'api/entry.ts': 'export const api = 1',
    })
    expect(checkFolderLayers(src, layers)).toEqual([
      {
        message: "'util' (layer low) imports 'api' (layer high), a higher layer: util/a.ts → ../api/entry.js",
      },
    ])
  })

  it('fail on a folder no layer names', () => {
    const src = plant({ 'stray/x.ts': 'export const x = 1' })
    expect(checkFolderLayers(src, layers)).toEqual([{ message: "folder 'stray' is in no layer" }])
  })

  it('pass folders whose imports run downward, tests and test utilities aside', () => {
    const src = plant({
      'index.ts': "export { api } from './api/entry.js'",
      'api/entry.ts': "import { m } from '../model/m.js'\nexport const api = m",
      'model/m.ts': "import { u } from '../util/u.js'\nexport const m = u",
      'util/u.ts': 'export const u = 1',
      'util/u.test.ts': "import { api } from '../api/entry.js'\nexport const t = api",
      'util/u.test-util.ts': "import { api } from '../api/entry.js'\nexport const t = api",
    })
    expect(checkFolderLayers(src, layers)).toEqual([])
  })
})
