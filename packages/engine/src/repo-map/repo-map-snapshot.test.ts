import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import {
  appendFile,
  chmod,
  mkdir,
  mkdtemp,
  readFile,
  rename,
  rm,
  stat,
  utimes,
  writeFile,
} from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildRepoMap, type RepoMapBuild } from './repo-map-build.js'
import { RepoMapService } from './repo-map-service.js'
import { sealSnapshot, snapshotFileFor } from './repo-map-snapshot.js'
import { loadOutlineCache } from './repo-map-store.js'
import { type WalkTrace, walkSourceFiles } from './walk.js'

// A map from the snapshot must be the map a cache-only build gives (and a fresh parse): each test
// below changes one kind of thing the walk depended on and checks that the snapshot is refused, the
// map is right, and the next session can trust the snapshot written in its place.

let temp: string
let root: string
let cacheFile: string
let snapshotFile: string

// Past times (seconds) for the paths a test changed: a snapshot is written only when every mtime it
// records is well before the walk (see `writeMapSnapshot`), and each step gets a new time so a
// change shows in the mtime too.
let clock = 1_600_000_000
async function age(...paths: string[]): Promise<void> {
  clock += 10
  for (const path of paths) await utimes(join(root, path), clock, clock)
}

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true })
  await writeFile(join(root, path), text)
}

interface Session {
  first: string
  text: string
  builds: RepoMapBuild[]
}

async function session(options: { maxChars?: number; touched?: string[] } = {}): Promise<Session> {
  const builds: RepoMapBuild[] = []
  const service = new RepoMapService({
    root,
    cacheFile,
    onBuild: (build) => builds.push(build),
    ...(options.maxChars !== undefined ? { maxChars: options.maxChars } : {}),
  })
  if (options.touched) service.touch(options.touched)
  const first = await service.text()
  const text = await service.built()
  await service.close()
  return { first, text, builds }
}

/** The snapshot file's body (after its digest line). */
async function readStored(): Promise<Record<string, unknown>> {
  const text = await readFile(snapshotFile, 'utf8')
  return JSON.parse(text.slice(text.indexOf('\n') + 1)) as Record<string, unknown>
}

/** The map of the tree as it is now, parsed afresh (no cache, no snapshot). */
async function truth(maxChars?: number): Promise<string> {
  const build = await buildRepoMap({ root, parseHere: true, ...(maxChars !== undefined ? { maxChars } : {}) })
  expect(build.errors).toEqual([])
  return build.text
}

async function expectHit(maxChars?: number): Promise<string> {
  const { first, text, builds } = await session(maxChars !== undefined ? { maxChars } : {})
  expect(builds).toHaveLength(1)
  expect(builds[0]).toMatchObject({ fromSnapshot: true, pending: 0, cacheUpdated: false, errors: [] })
  expect(builds[0]!.reused).toBe(builds[0]!.outlined)
  expect(first).toBe(text)
  const cacheOnly = await buildRepoMap({
    root,
    parse: false,
    cache: await loadOutlineCache(cacheFile, root),
    ...(maxChars !== undefined ? { maxChars } : {}),
  })
  expect(cacheOnly.pending).toBe(0)
  expect(text).toBe(cacheOnly.text)
  expect(builds[0]).toMatchObject({
    files: cacheOnly.files,
    outlined: cacheOnly.outlined,
    visited: cacheOnly.visited,
  })
  expect(text).toBe(await truth(maxChars))
  return text
}

/** The session's map is in its first request and right, whichever way it was made. */
async function expectRight(): Promise<string> {
  const { first, text } = await session()
  expect(first).toBe(text)
  expect(text).toBe(await truth())
  return text
}

async function expectRefused(maxChars?: number): Promise<string> {
  const { text, builds } = await session(maxChars !== undefined ? { maxChars } : {})
  expect(builds.length).toBeGreaterThan(0)
  expect(builds.every((build) => !build.fromSnapshot)).toBe(true)
  expect(text).toBe(await truth(maxChars))
  return text
}

beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), 'z-repo-map-snapshot-'))
  root = join(temp, 'project')
  cacheFile = join(temp, 'data', 'repo-map', 'project.json')
  snapshotFile = snapshotFileFor(cacheFile)
  await mkdir(root, { recursive: true })
  execFileSync('git', ['init', '-q', root])
  await mkdir(join(root, '.git', 'info'), { recursive: true })
  await writeFile(join(root, '.git', 'info', 'exclude'), '# nothing excluded\n')
  await put('.gitignore', 'dist/\n')
  await put('src/a.ts', 'export function alpha(): number { return 1 }\n')
  await put('src/b.ts', "import { alpha } from './a.js'\nexport const beta = alpha()\n")
  await put('src/util/c.ts', 'export class Gamma { run(): void {} }\n')
  await put('lib/d.py', 'def delta():\n    return 4\n')
  await put('dist/out.ts', 'export const built = 1\n')
  await put('big.ts', `export const big = '${'x'.repeat(201 * 1024)}'\n`)
  await age(
    'src/a.ts',
    'src/b.ts',
    'src/util/c.ts',
    'lib/d.py',
    'dist/out.ts',
    'big.ts',
    '.gitignore',
    '.git/info/exclude',
    'src/util',
    'src',
    'lib',
    'dist',
    '',
  )
})

afterAll(async () => {
  await chmod(join(root, 'src', 'util'), 0o755).catch(() => undefined)
  await rm(temp, { recursive: true, force: true })
})

describe('walkSourceFiles trace', () => {
  it('records every folder listed, ignore file read or missing, and candidate, large ones included', async () => {
    const trace: WalkTrace = { paths: new Map() }
    const result = await walkSourceFiles(root, { trace, maxFiles: 2 })
    expect(result.files).toHaveLength(2)
    expect([...trace.paths.keys()].sort()).toEqual(
      [
        '',
        '.git/info/exclude',
        '.gitignore',
        'big.ts',
        'lib',
        'lib/d.py',
        'src',
        'src/a.ts',
        'src/b.ts',
        'src/util',
        'src/util/c.ts',
      ].sort(),
    )
    const missing: WalkTrace = { paths: new Map() }
    const empty = join(temp, 'empty')
    await mkdir(empty, { recursive: true })
    await walkSourceFiles(empty, { trace: missing })
    expect(missing.paths.get('.git/info/exclude')).toBeNull()
    expect(missing.paths.get('')).toMatchObject({ size: expect.any(Number), mtimeMs: expect.any(Number) })
  })
})

describe('the repository map snapshot', () => {
  it('is written by a complete first build and gives the cache-only map without walking', async () => {
    const first = await session()
    expect(first.builds.every((build) => !build.fromSnapshot)).toBe(true)
    expect(first.first).toBe('') // nothing cached yet: the map came late
    expect(existsSync(snapshotFile)).toBe(true)
    expect(snapshotFile).toBe(join(temp, 'data', 'repo-map', 'project.snapshot.json'))
    const text = await expectHit()
    expect(text).toBe(first.text)
    expect(text).toContain('src/a.ts:')
    expect(text).not.toContain('dist/out.ts')
  })

  it('loads the outline cache only when a later generation needs it', async () => {
    const builds: RepoMapBuild[] = []
    const service = new RepoMapService({ root, cacheFile, onBuild: (build) => builds.push(build) })
    const text = await service.text()
    service.touch(['lib/d.py'])
    service.invalidate()
    const rebuilt = await service.text()
    await service.close()
    expect(builds.map((build) => build.fromSnapshot)).toEqual([true, false])
    // every outline came from the persisted cache: nothing parsed
    expect(builds[1]).toMatchObject({ pending: 0, reused: builds[0]!.outlined })
    expect(rebuilt).not.toBe(text)
    expect(rebuilt.indexOf('lib/d.py:')).toBe(rebuilt.indexOf('\n\n') + 2)
  })

  it('is not used, nor rewritten, when files were touched before the first build', async () => {
    const before = await readFile(snapshotFile, 'utf8')
    const { builds } = await session({ touched: ['lib/d.py'] })
    expect(builds.every((build) => !build.fromSnapshot)).toBe(true)
    expect(await readFile(snapshotFile, 'utf8')).toBe(before)
    await expectHit()
  })

  it('is refused when a file is edited', async () => {
    await expectHit()
    await put('src/a.ts', 'export function alpha(): number { return 1 }\nexport function omega(): void {}\n')
    await age('src/a.ts')
    expect(await expectRefused()).toContain('function omega(): void')
    await expectHit()
  })

  it('holds when files only got new dates, and gives its listing when their bytes changed (no walk)', async () => {
    await expectHit()
    // Rewritten with the same bytes (a checkout, a reset, an editor's save): the map must be in the
    // first request, rebuilt from the cached outlines; no folder changed, so nothing is walked.
    const same = await readFile(join(root, 'src/b.ts'), 'utf8')
    await writeFile(join(root, 'src/b.ts'), same)
    await age('src/b.ts')
    // Same bytes: the text holds (the file's hash is checked), nothing rebuilt.
    await expectHit()
    // A file's content changed: the listing still holds, the changed file is parsed, the map is right.
    await put('lib/d.py', 'def delta():\n    return 4\n\ndef kappa():\n    return 5\n')
    await age('lib/d.py')
    const edited = await session()
    expect(edited.builds.length).toBeGreaterThan(0)
    expect(edited.builds.every((build) => build.listingFromSnapshot && !build.fromSnapshot)).toBe(true)
    expect(edited.text).toContain('def kappa()')
    expect(edited.text).toBe(await truth())
    await expectHit()
    // An atomic save (a temp file written beside it, renamed over it) moves the folder's mtime with
    // the same entries: the folder is listed again and the listing holds.
    await writeFile(join(root, 'src/b.ts.tmp'), same)
    await rename(join(root, 'src/b.ts.tmp'), join(root, 'src/b.ts'))
    await age('src/b.ts', 'src')
    await expectHit()
    // The same with new bytes: the listing holds, the file is parsed again.
    await writeFile(join(root, 'src/b.ts.tmp'), `${same}export const beta2 = 2\n`)
    await rename(join(root, 'src/b.ts.tmp'), join(root, 'src/b.ts'))
    await age('src/b.ts', 'src')
    const saved = await session()
    expect(saved.builds.every((build) => build.listingFromSnapshot && !build.fromSnapshot)).toBe(true)
    expect(saved.text).toContain('const beta2')
    expect(saved.text).toBe(await truth())
    await expectHit()
    // A file added changes its folder: the listing is refused and the project walked.
    await put('lib/f.py', 'def phi():\n    return 6\n')
    await age('lib/f.py', 'lib')
    const added = await session()
    expect(added.builds.every((build) => !build.listingFromSnapshot && !build.fromSnapshot)).toBe(true)
    expect(added.text).toBe(await truth())
    await rm(join(root, 'lib/f.py'))
    await age('lib')
    await expectRefused()
    await expectHit()
  })

  it('is refused when a file is replaced by one of the same size and date', async () => {
    const before = await readFile(join(root, 'src/a.ts'), 'utf8')
    const { mtime } = await stat(join(root, 'src/a.ts'))
    await writeFile(join(root, 'src/a.tmp'), before.replace('alpha', 'alphx'))
    await utimes(join(root, 'src/a.tmp'), clock, clock)
    await rename(join(root, 'src/a.tmp'), join(root, 'src/a.ts'))
    await age('src')
    await utimes(join(root, 'src/a.ts'), mtime, mtime) // the date it had
    // Size and mtime match the cached outline, so a cache-only build reuses it (stale, as it would
    // be without the snapshot); the snapshot refuses (inode, ctime and the folder's mtime moved) and
    // gives way to exactly that cache-only build.
    const cacheOnly = await buildRepoMap({
      root,
      parse: false,
      cache: await loadOutlineCache(cacheFile, root),
    })
    const { text, builds } = await session()
    expect(builds.every((build) => !build.fromSnapshot)).toBe(true)
    expect(text).toBe(cacheOnly.text)
    await writeFile(join(root, 'src/a.ts'), before)
    await age('src/a.ts')
    await expectRight()
    await expectHit()
  })

  it('is refused when a file is added', async () => {
    await put('src/e.ts', 'export interface Epsilon { e: number }\n')
    await age('src/e.ts', 'src')
    expect(await expectRefused()).toContain('interface Epsilon')
    await expectHit()
  })

  it('is refused when a file is removed', async () => {
    await rm(join(root, 'src/b.ts'))
    await age('src')
    expect(await expectRefused()).not.toContain('src/b.ts')
    await expectHit()
  })

  it('is refused when a file is renamed', async () => {
    await rename(join(root, 'lib/d.py'), join(root, 'lib/d2.py'))
    await age('lib')
    expect(await expectRefused()).toContain('lib/d2.py:')
    await expectHit()
  })

  it('is refused when a .gitignore changes or appears', async () => {
    await appendFile(join(root, '.gitignore'), 'lib/\n')
    await age('.gitignore')
    expect(await expectRefused()).not.toContain('lib/d2.py')
    await expectHit()
    await put('src/util/.gitignore', 'c.ts\n')
    await age('src/util/.gitignore', 'src/util')
    expect(await expectRefused()).not.toContain('src/util/c.ts')
    await expectHit()
  })

  it('is refused when .git/info/exclude changes or appears', async () => {
    await writeFile(join(root, '.git/info/exclude'), 'src/e.ts\n')
    await age('.git/info/exclude')
    expect(await expectRefused()).not.toContain('src/e.ts')
    await expectHit()
    // a repository without the file, then with it
    await rm(join(root, '.git/info/exclude'))
    expect(await expectRefused()).toContain('src/e.ts')
    await expectHit()
    await writeFile(join(root, '.git/info/exclude'), 'src/e.ts\n')
    await age('.git/info/exclude')
    expect(await expectRefused()).not.toContain('src/e.ts')
    await expectHit()
  })

  it('is refused when a folder becomes unreadable (its ctime moves) and again when readable', async () => {
    await rm(join(root, 'src/util/.gitignore'))
    await age('src/util')
    await expectRefused()
    await expectHit()
    // The folder's ctime moves, so it is listed again (as root, the tests' user, it still can be).
    await chmod(join(root, 'src/util'), 0o000)
    await expectRight()
    await expectHit()
    await chmod(join(root, 'src/util'), 0o755)
    expect(await expectRight()).toContain('src/util/c.ts')
    await expectHit()
  })

  it('is refused when a file over the size limit changes', async () => {
    await put('big.ts', 'export const big = 0\n')
    await age('big.ts')
    expect(await expectRefused()).toContain('big.ts:')
    await expectHit()
  })

  it('is refused when repo_map_chars changes', async () => {
    expect((await expectRefused(300)).length).toBeLessThanOrEqual(300)
    await expectHit(300)
    await expectRefused()
    await expectHit()
  })

  it('is refused when written by another engine version or for another root', async () => {
    const stored = (await readStored()) as { key: Record<string, unknown> }
    for (const change of [{ version: '0.0' }, { code: '1:2' }, { root: '/elsewhere' }, { extra: 1 }]) {
      await writeFile(
        snapshotFile,
        sealSnapshot(JSON.stringify({ ...stored, key: { ...stored.key, ...change } })),
      )
      await expectRefused()
      await expectHit()
    }
  })

  it('is refused when corrupt or foreign, and when the outline cache was replaced', async () => {
    const stored = (await readStored()) as { paths: unknown[]; listed: number }
    // Well sealed but malformed entries (the last one's fields of the wrong type or count; the first
    // one, a folder, said absent): refused, or at most taken as a changed file and rebuilt.
    const last = stored.paths.length - 1
    const path = (stored.paths[last] as [string])[0]
    const withEntry = (index: number, entry: unknown) =>
      sealSnapshot(
        JSON.stringify({ ...stored, paths: stored.paths.map((old, at) => (at === index ? entry : old)) }),
      )
    const badEntries = [
      withEntry(last, [42]),
      withEntry(last, [path, '1', 2, 3, 4]),
      withEntry(last, [path, 1, 2]),
      withEntry(last, path),
      withEntry(last, [path]),
      withEntry(0, [(stored.paths[0] as [string])[0]]),
    ]
    const badListed = [-1, 1.5, stored.paths.length + 1, '3'].map((listed) =>
      sealSnapshot(JSON.stringify({ ...stored, listed })),
    )
    const original = await readFile(snapshotFile, 'utf8')
    for (const body of [
      '{"key":',
      '[]',
      sealSnapshot('{"key":{},"cache":null,"map":{},"paths":[]}'),
      sealSnapshot('null'),
      ...badListed,
      // an entry lost, the digest not updated (damage or a hand edit)
      original.replace(/,\["src\/a\.ts",[0-9.,]+\]/, ''),
      JSON.stringify(stored),
    ]) {
      await writeFile(snapshotFile, body)
      await expectRefused()
      await expectHit()
    }
    // Sealed entries of the wrong shape: refused, or a file taken as changed and its bytes checked.
    for (const body of badEntries) {
      await writeFile(snapshotFile, body)
      await expectRight()
      await expectHit()
    }
    // another session rewrote the outline cache (same bytes, new file)
    const cache = await readFile(cacheFile)
    await rm(cacheFile)
    await writeFile(cacheFile, cache)
    await expectRight()
    await expectHit()
  })

  it('records a file changed just before the walk as changed, and is not written when a folder was', async () => {
    // racy source file: the snapshot is written with it marked changed
    await put('src/a.ts', 'export function alpha(): number { return 2 }\n')
    const future = Date.now() / 1000 + 60
    await utimes(join(root, 'src/a.ts'), future, future)
    await expectRefused()
    expect(existsSync(snapshotFile)).toBe(true)
    // recorded as changed: its bytes are hashed, the same as when the map was made, so it holds
    await expectHit()
    await age('src/a.ts')
    await expectRight()
    await expectHit()
    // racy folder: no snapshot; once the folder is old, walked and written again
    await put('src/g.ts', 'export const gamma = 7\n')
    await age('src/g.ts')
    await utimes(join(root, 'src'), future, future)
    await rm(snapshotFile)
    expect(await expectRefused()).toContain('const gamma')
    expect(existsSync(snapshotFile)).toBe(false)
    await age('src')
    await expectRefused()
    expect(existsSync(snapshotFile)).toBe(true)
    await expectHit()
  })
})
