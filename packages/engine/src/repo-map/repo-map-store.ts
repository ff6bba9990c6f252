import { createHash, randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import type { FileOutline } from '@z-engine/context'
import type { CachedOutline, OutlineCache } from './repo-map-build.js'

/** Bumped when the outline shape or the outliners change, so older files are ignored. */
export const OUTLINE_FORMAT_VERSION = 1
const FORMAT_VERSION = OUTLINE_FORMAT_VERSION

/**
 * Where a project's repository-map outlines persist between sessions:
 * `<dataDir>/repo-map/<hash of the project root>.json`, outside the project.
 */
export function repoMapCacheFile(dataDir: string, projectRoot: string): string {
  const digest = createHash('sha256').update(resolve(projectRoot)).digest('hex').slice(0, 24)
  return join(dataDir, 'repo-map', `${digest}.json`)
}

interface StoredEntry {
  path: string
  size: number
  mtimeMs: number
  hash: string
  language: FileOutline['language']
  definitions: FileOutline['definitions']
  identifiers: [string, number][]
}

/**
 * Reads persisted outlines of `root` into a new cache. A missing, unreadable, foreign or older
 * file gives an empty cache: the map is then built from scratch, never from doubtful data.
 */
export async function loadOutlineCache(file: string, root: string): Promise<OutlineCache> {
  const cache: OutlineCache = new Map()
  let parsed: unknown
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'))
  } catch {
    return cache
  }
  if (!isRecord(parsed) || parsed.version !== FORMAT_VERSION || parsed.root !== resolve(root)) return cache
  if (!Array.isArray(parsed.entries)) return cache
  for (const entry of parsed.entries) {
    if (!isStoredEntry(entry)) return new Map()
    cache.set(entry.path, {
      size: entry.size,
      mtimeMs: entry.mtimeMs,
      hash: entry.hash,
      outline: {
        path: entry.path,
        language: entry.language,
        definitions: entry.definitions,
        identifiers: new Map(entry.identifiers),
      },
    })
  }
  return cache
}

/** Writes the cache for the next session (atomically: a reader sees the old file or the new one). */
export async function saveOutlineCache(file: string, root: string, cache: OutlineCache): Promise<void> {
  const entries: StoredEntry[] = [...cache].map(([path, cached]: [string, CachedOutline]) => ({
    path,
    size: cached.size,
    mtimeMs: cached.mtimeMs,
    hash: cached.hash,
    language: cached.outline.language,
    definitions: cached.outline.definitions,
    identifiers: [...cached.outline.identifiers],
  }))
  const body = JSON.stringify({ version: FORMAT_VERSION, root: resolve(root), entries })
  await mkdir(dirname(file), { recursive: true })
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`
  try {
    await writeFile(temporary, body)
    await rename(temporary, file)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isStoredEntry(value: unknown): value is StoredEntry {
  return (
    isRecord(value) &&
    typeof value.path === 'string' &&
    typeof value.size === 'number' &&
    typeof value.mtimeMs === 'number' &&
    typeof value.hash === 'string' &&
    typeof value.language === 'string' &&
    Array.isArray(value.definitions) &&
    Array.isArray(value.identifiers)
  )
}
