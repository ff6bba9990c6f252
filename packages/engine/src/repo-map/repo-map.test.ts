import { mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Outliner } from '@z-engine/context'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadOutliner } from './grammars.js'
import { outlineBatchesWaiting, outlineThreadStarted } from './outline-files.js'
import { buildRepoMap } from './repo-map-build.js'
import { RepoMapService } from './repo-map-service.js'
import { walkSourceFiles } from './walk.js'

const here = dirname(fileURLToPath(import.meta.url))
const fixtures = join(here, '__fixtures__', 'repo-map')
const repositoryRoot = resolve(here, '../../../..')

let outliner: Outliner
let temp: string

beforeAll(async () => {
  const loaded = await loadOutliner()
  if (!loaded.ok) throw new Error(loaded.error)
  expect(loaded.errors).toEqual([])
  outliner = loaded.outliner
  temp = await mkdtemp(join(tmpdir(), 'z-repo-map-'))
})

afterAll(async () => {
  await rm(temp, { recursive: true, force: true })
})

async function until(condition: () => boolean): Promise<void> {
  // A ceiling for a loaded machine: it returns as soon as the condition holds.
  const deadline = Date.now() + 90_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

async function put(root: string, path: string, text: string, mtimeSeconds?: number): Promise<void> {
  const file = join(root, path)
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, text)
  if (mtimeSeconds !== undefined) await utimes(file, mtimeSeconds, mtimeSeconds)
}

describe('outlines (golden files)', () => {
  it.each(['ts', 'tsx', 'js', 'py', 'go', 'rs'])('outlines sample.%s', async (extension) => {
    const source = await readFile(join(fixtures, `sample.${extension}.txt`), 'utf8')
    const result = outliner.outline(`sample.${extension}`, source)
    expect(result.ok).toBe(true)
    if (!result.ok) return
    const lines = result.outline.definitions.map(
      (definition) =>
        `${'  '.repeat(definition.depth)}${definition.signature}  [${definition.kind}${definition.exported ? '' : ', private'}]`,
    )
    await expect(`${lines.join('\n')}\n`).toMatchFileSnapshot(
      join(fixtures, `sample.${extension}.golden.txt`),
    )
    // the same text outlines the same way every time
    const again = outliner.outline(`sample.${extension}`, source)
    expect(again.ok && again.outline.definitions).toEqual(result.outline.definitions)
  })

  it('leaves out function bodies and Rust test-only code', async () => {
    const ts = outliner.outline('a.ts', await readFile(join(fixtures, 'sample.ts.txt'), 'utf8'))
    const rust = outliner.outline('a.rs', await readFile(join(fixtures, 'sample.rs.txt'), 'utf8'))
    if (!ts.ok || !rust.ok) throw new Error('outline failed')
    const tsNames = ts.outline.definitions.map((definition) => definition.name)
    expect(tsNames).not.toContain('local')
    expect(tsNames).not.toContain('inner')
    expect(tsNames).not.toContain('mutable')
    expect(ts.outline.definitions.every((definition) => !definition.signature.includes('return'))).toBe(true)
    const rustNames = rust.outline.definitions.map((definition) => definition.name)
    for (const name of ['tests', 'it_works', 'top_level_test', 'async_test', 'inline_test_method']) {
      expect(rustNames).not.toContain(name)
    }
    expect(rustNames).toContain('only_outside_tests')
  })

  it('reports files it has no grammar for', () => {
    expect(outliner.outline('notes.md', '# hi')).toEqual({
      ok: false,
      error: 'notes.md: no grammar for this file type',
    })
  })
})

describe('walkSourceFiles', () => {
  it('honours .gitignore, skips node_modules, large files and symlinks, newest first', async () => {
    const root = join(temp, 'walk')
    await put(root, '.gitignore', 'dist/\n*.gen.ts\n')
    await put(root, 'src/.gitignore', 'local.ts\n')
    await put(root, '.git/info/exclude', 'secret/\n')
    await put(root, 'src/old.ts', 'export const a = 1', 1_000)
    await put(root, 'src/new.ts', 'export const b = 1', 3_000)
    await put(root, 'src/mid.py', 'X = 1', 2_000)
    await put(root, 'src/local.ts', 'export const c = 1')
    await put(root, 'src/api.gen.ts', 'export const d = 1')
    await put(root, 'dist/out.js', 'x')
    await put(root, 'secret/s.go', 'package s')
    await put(root, 'node_modules/dep/index.js', 'x')
    await put(root, 'README.md', '# readme')
    await put(root, 'big.ts', `export const big = '${'x'.repeat(201 * 1024)}'`)
    await symlink(join(root, 'src'), join(root, 'linked'))
    const result = await walkSourceFiles(root)
    expect(result.files.map((file) => file.path)).toEqual(['src/new.ts', 'src/mid.py', 'src/old.ts'])
    expect(result.skippedLarge).toBe(1)
    expect(result.truncated).toBe(false)
    const limited = await walkSourceFiles(root, { maxFiles: 2 })
    expect(limited.files.map((file) => file.path)).toEqual(['src/new.ts', 'src/mid.py'])
    const few = await walkSourceFiles(root, { maxPaths: 2 })
    expect(few.truncated).toBe(true)
    expect(few.visited).toBe(2)
  })
})

describe('buildRepoMap', () => {
  it('is byte-identical across builds and independent of file dates when nothing is touched', async () => {
    const root = join(temp, 'determinism')
    for (let i = 0; i < 30; i++) {
      await put(
        root,
        `src/module${i}.ts`,
        `import { helper${(i + 1) % 30} } from './module${(i + 1) % 30}'\nexport function helper${i}(x: number): number { return helper${(i + 1) % 30}(x) }\nexport class Thing${i} { run(): void {} }\n`,
        1_000 + i,
      )
    }
    await put(root, 'src/core.ts', 'export function core(): void {}\n', 500)
    for (let i = 0; i < 10; i++)
      await put(root, `src/user${i}.ts`, `import { core } from './core'\ncore(); core()\n`, 2_000 + i)
    const first = await buildRepoMap({ root })
    const second = await buildRepoMap({ root })
    expect(first.text).toBe(second.text)
    const cache = new Map()
    await buildRepoMap({ root, cache })
    const cached = await buildRepoMap({ root, cache })
    expect(cached.reused).toBe(41)
    expect(cached.text).toBe(first.text)
    expect(first.outlined).toBe(41)
    // core.ts is referenced most, so it leads
    expect(first.text.indexOf('src/core.ts:')).toBeGreaterThan(0)
    expect(first.text.indexOf('src/core.ts:')).toBeLessThan(first.text.indexOf('src/module0.ts:'))
    const touched = await buildRepoMap({ root, touched: ['src/module7.ts'] })
    const order = [...touched.text.matchAll(/^(src\/\S+):$/gm)].map((match) => match[1])
    expect(order[0]).toBe('src/module7.ts')
    // module7 calls helper8 (module8) and is called by module6: both are neighbours
    expect(order.slice(1, 3).sort()).toEqual(['src/module6.ts', 'src/module8.ts'])
    const small = await buildRepoMap({ root, maxChars: 300 })
    expect(small.text.length).toBeLessThanOrEqual(300)
  })

  it('parses a handful of files on this thread (parseHere) into the same map as the worker', async () => {
    const root = join(temp, 'here')
    await put(root, 'src/a.ts', "import { b } from './b'\nexport function a(): number { return b() }\n")
    await put(root, 'src/b.ts', 'export function b(): number { return 1 }\n')
    await put(root, 'lib/c.py', 'def c():\n    return 2\n')
    const here = await buildRepoMap({ root, parseHere: true })
    const worker = await buildRepoMap({ root })
    expect(here.errors).toEqual([])
    expect(here.outlined).toBe(3)
    expect(here.text).toBe(worker.text)
    expect(here.text).toContain('lib/c.py:')
  })

  it('maps this repository within the budget', async () => {
    const build = await buildRepoMap({ root: repositoryRoot })
    expect(build.errors).toEqual([])
    expect(build.outlined).toBeGreaterThan(50)
    expect(build.outlined).toBeLessThanOrEqual(400)
    expect(build.text.length).toBeGreaterThan(3_000)
    expect(build.text.length).toBeLessThanOrEqual(6_000)
    expect(build.text).toMatch(/^packages\/\S+\.ts:$/m)
    expect(build.text).not.toContain('node_modules')
  })
})

describe('RepoMapService', () => {
  it('never makes the first request wait for parsing; the late map is stable until invalidated', async () => {
    const root = join(temp, 'service')
    for (let i = 0; i < 5; i++) await put(root, `lib/file${i}.py`, `def func${i}(a):\n    return a\n`)
    await put(root, 'lib/hub.py', 'from lib import *\n' + 'func0(1)\n'.repeat(5))
    const builds: number[] = []
    const reused: number[] = []
    const late: string[] = []
    const service = new RepoMapService({
      root,
      onBuild: (build) => {
        builds.push(build.outlined)
        reused.push(build.reused)
      },
      onLate: (text) => late.push(text),
    })
    service.start()
    // Nothing cached: the first text is empty, the finished map goes to onLate.
    expect(await service.text()).toBe('')
    const first = await service.built()
    expect(late).toEqual([first])
    expect(first).toContain('lib/file0.py:')
    expect(first.indexOf('lib/file0.py:')).toBeLessThan(first.indexOf('lib/file1.py:'))
    service.touch(['lib/file3.py'])
    await put(root, 'lib/file9.py', 'def late(): pass\n')
    expect(await service.text()).toBe('')
    expect(builds).toEqual([6])
    service.invalidate()
    // After an invalidation the next text waits for the (incremental) rebuild.
    const rebuilt = await service.text()
    expect(await service.text()).toBe(rebuilt)
    expect(builds).toEqual([6, 7])
    // only the new file was parsed on the rebuild; the cache-only pass found it missing
    expect(reused).toEqual([0, 6])
    expect(rebuilt).not.toBe(first)
    expect(rebuilt.indexOf('lib/file3.py:')).toBe(rebuilt.indexOf('\n\n') + 2)
    expect(late).toHaveLength(1)
    expect(await new RepoMapService({ root, enabled: false }).text()).toBe('')
    expect(await new RepoMapService({ root, worktreeAgent: true }).text()).toBe('')
  })

  it('persists outlines: a later session gets the map on its first text, keyed by content', async () => {
    const root = join(temp, 'persisted')
    const cacheFile = join(temp, 'data', 'repo-map', 'persisted.json')
    for (let i = 0; i < 4; i++)
      await put(root, `src/m${i}.ts`, `export function f${i}(): number { return ${i} }\n`)
    const earlier = new RepoMapService({ root, cacheFile })
    const map = await earlier.built()
    expect(map).toContain('src/m0.ts:')
    await earlier.close()

    const builds: { reused: number; pending: number; outlined: number }[] = []
    const onBuild = (build: { reused: number; pending: number; outlined: number }) => builds.push(build)
    const later = new RepoMapService({ root, cacheFile, onBuild, onLate: () => expect.unreachable() })
    expect(await later.text()).toBe(map)
    expect(builds).toMatchObject([{ reused: 4, pending: 0, outlined: 4 }])

    // A checkout rewrites files with the same bytes: new mtimes, same hashes, still no parsing.
    for (let i = 0; i < 4; i++)
      await put(root, `src/m${i}.ts`, `export function f${i}(): number { return ${i} }\n`, 9_000 + i)
    builds.length = 0
    expect(await new RepoMapService({ root, cacheFile, onBuild }).text()).toBe(map)
    expect(builds).toMatchObject([{ reused: 4, pending: 0 }])

    // A changed file must be parsed: the first text is empty and the new map comes late.
    await put(root, 'src/m1.ts', 'export function renamed(): number { return 1 }\n')
    builds.length = 0
    const late: string[] = []
    const changed = new RepoMapService({ root, cacheFile, onBuild, onLate: (text) => late.push(text) })
    expect(await changed.text()).toBe('')
    const fresh = await changed.built()
    expect(late).toEqual([fresh])
    expect(fresh).toContain('function renamed(): number')
    expect(builds).toMatchObject([{ reused: 3, pending: 0, outlined: 4 }])
    await changed.close()

    // A broken cache file is ignored, never trusted.
    await writeFile(cacheFile, '{"version":1,"root":')
    expect(await new RepoMapService({ root, cacheFile }).text()).toBe('')
  })

  it('close stops a running build; the next session finishes and persists the map', async () => {
    const root = join(temp, 'closing')
    const cacheFile = join(temp, 'data', 'repo-map', 'closing.json')
    for (let i = 0; i < 60; i++) await put(root, `src/m${i}.ts`, `export const c${i} = ${i}\n`)
    const service = new RepoMapService({ root, cacheFile, onLate: () => expect.unreachable() })
    expect(await service.text()).toBe('')
    await service.close()
    expect(await service.text()).toBe('')
    const next = new RepoMapService({ root, cacheFile })
    await next.built()
    await next.close()
    const after = JSON.parse(await readFile(cacheFile, 'utf8')) as { entries: unknown[] }
    expect(after.entries).toHaveLength(60)
  })

  it('close abandons the parse in flight: the thread ends, the next session starts another', async () => {
    const root = join(temp, 'abandoned')
    const cacheFile = join(temp, 'data', 'repo-map', 'abandoned.json')
    // Enough to keep the thread busy for many batches after it starts.
    for (let i = 0; i < 300; i++)
      await put(root, `src/m${i}.ts`, `export function f${i}(a: number): number {\n  return a + ${i}\n}\n`)
    const service = new RepoMapService({ root, cacheFile, onLate: () => expect.unreachable() })
    expect(await service.text()).toBe('')
    // A batch is in the thread's hands: closing must not wait for it.
    await until(() => outlineBatchesWaiting() > 0)
    await service.close()
    // Nothing parses for a closed session: the thread is gone, not left finishing its batch.
    expect(outlineBatchesWaiting()).toBe(0)
    expect(outlineThreadStarted()).toBe(false)
    const next = new RepoMapService({ root, cacheFile })
    expect(await next.built()).toContain('src/m0.ts:')
    await next.close()
    const after = JSON.parse(await readFile(cacheFile, 'utf8')) as { entries: unknown[] }
    expect(after.entries).toHaveLength(300)
  })
})

describe('a map parsed across short sessions (issue 40)', () => {
  it('sessions that close as soon as their parse is under way each add outlines, until one starts with the whole map', async () => {
    const root = join(temp, 'short-sessions')
    const cacheFile = join(temp, 'data', 'repo-map', 'short-sessions.json')
    const files = 24
    for (let i = 0; i < files; i++)
      await put(root, `src/m${i}.ts`, `export function f${i}(a: number): number {\n  return a + ${i}\n}\n`)
    const entries = async () => {
      try {
        return (JSON.parse(await readFile(cacheFile, 'utf8')) as { entries: unknown[] }).entries.length
      } catch {
        return 0
      }
    }
    const counts: number[] = []
    let map = ''
    for (let session = 0; session < files && map === ''; session++) {
      const service = new RepoMapService({ root, cacheFile })
      map = await service.text()
      if (map === '') {
        // The run ends while the parsing thread has a batch in hand (or, the last files, once it is done).
        let built = false
        void service.built().then(() => {
          built = true
        })
        await until(() => outlineBatchesWaiting() > 0 || built)
        await service.close()
        counts.push(await entries())
      } else await service.close()
    }
    // Every stopped session saved more than the one before (at least its first batch), so the map
    // is complete after a bounded number of them and then goes into the first request.
    expect(counts.length).toBeGreaterThan(0)
    expect(counts.every((count, index) => count > (index === 0 ? 0 : counts[index - 1]!))).toBe(true)
    expect(map).toContain('src/m0.ts:')
    expect(map).toContain(`src/m${files - 1}.ts:`)
    expect(await entries()).toBe(files)
  })
})
