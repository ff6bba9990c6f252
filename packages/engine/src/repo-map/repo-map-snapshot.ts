import { randomBytes } from 'node:crypto'
import { readFileSync, type Stats, statSync } from 'node:fs'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  DEFAULT_REPO_MAP_CHARS,
  REPO_MAP_MAX_FILE_BYTES,
  REPO_MAP_MAX_FILES,
  REPO_MAP_MAX_PATHS,
} from '@z-engine/context'
import { OUTLINE_FORMAT_VERSION } from './repo-map-store.js'
import { type PathStamp, stampOf, type WalkOptions, type WalkTrace } from './walk.js'

/**
 * Bumped when the walk, the ranking or the rendering change the text a set of files gives. The key
 * also holds the outline format and the stamp of this module's own file, so a rebuilt or upgraded
 * engine never trusts an older engine's snapshot even when nobody bumped this.
 */
const SNAPSHOT_VERSION = 1

/** Everything besides the files that a first-generation map depends on. */
export interface SnapshotKey {
  version: string
  /** Size and mtime of the running engine's code file. */
  code: string
  root: string
  maxChars: number
  maxPaths: number
  maxFiles: number
  maxFileBytes: number
}

/** What a snapshot gives back: the map and the figures of the build that made it. */
export interface MapSnapshot {
  text: string
  files: number
  outlined: number
  visited: number
}

/** Where the snapshot goes: next to the outline cache, `<digest>.snapshot.json`. */
export function snapshotFileFor(cacheFile: string): string {
  return cacheFile.endsWith('.json')
    ? `${cacheFile.slice(0, -'.json'.length)}.snapshot.json`
    : `${cacheFile}.snapshot.json`
}

/**
 * The key of a first-generation map of `root` with these limits, or undefined when the engine's code
 * file cannot be stamped (then no snapshot is trusted or written: fail closed).
 */
export function snapshotKey(
  root: string,
  maxChars: number | undefined,
  limits: Pick<WalkOptions, 'maxPaths' | 'maxFiles' | 'maxFileBytes'> = {},
): SnapshotKey | undefined {
  const code = codeStamp()
  if (code === undefined) return undefined
  return {
    version: `${OUTLINE_FORMAT_VERSION}.${SNAPSHOT_VERSION}`,
    code,
    root: resolve(root),
    maxChars: maxChars ?? DEFAULT_REPO_MAP_CHARS,
    maxPaths: limits.maxPaths ?? REPO_MAP_MAX_PATHS,
    maxFiles: limits.maxFiles ?? REPO_MAP_MAX_FILES,
    maxFileBytes: limits.maxFileBytes ?? REPO_MAP_MAX_FILE_BYTES,
  }
}

let ownCode: string | null | undefined
function codeStamp(): string | undefined {
  if (ownCode === undefined) {
    let stamp: PathStamp | null = null
    try {
      stamp = stampOf(fileURLToPath(import.meta.url))
    } catch {
      // not a file: URL (e.g. bundled into something unusual): never trust a snapshot
    }
    ownCode = stamp ? `${stamp.size}:${stamp.mtimeMs}` : null
  }
  return ownCode ?? undefined
}

// Stored compactly: a stamp as [size, mtimeMs, ctimeMs, ino]; a path with its stamp, or alone when
// it was absent.
type StoredStamp = [number, number, number, number]
type StoredPath = [string, number, number, number, number] | [string]

interface StoredSnapshot {
  key: SnapshotKey
  /** The outline cache file's stamp when the snapshot was written. */
  cache: StoredStamp | null
  map: MapSnapshot
  paths: StoredPath[]
}

/**
 * The persisted map when nothing it depended on changed: the key matches, the outline cache file is
 * the one it was written beside, and every recorded path `stat`s to the same size, mtime, ctime
 * and inode (or is still absent). Synchronous and `stat`-only, for the first request's critical path.
 * Anything else — missing, corrupt or foreign file, a different key, one changed path — gives
 * undefined, and the caller builds as if there were no snapshot.
 */
export function readMapSnapshot(file: string, key: SnapshotKey, cacheFile: string): MapSnapshot | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return undefined
  }
  if (!isStoredSnapshot(parsed) || !sameKey(parsed.key, key)) return undefined
  if (!sameStamp(parsed.cache, stampOf(cacheFile))) return undefined
  // One pass that checks each entry's shape as it compares it (a non-number never equals a stat
  // figure): this runs before the first request, over every path of the project.
  const prefix = key.root.endsWith(sep) ? key.root : key.root + sep
  for (const entry of parsed.paths as unknown[]) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string') return undefined
    const path: string = entry[0]
    let info: Stats | undefined
    try {
      info = statSync(path === '' ? key.root : prefix + path, { throwIfNoEntry: false })
    } catch {
      info = undefined
    }
    if (entry.length === 1) {
      if (info !== undefined) return undefined
    } else if (
      entry.length !== 5 ||
      info === undefined ||
      entry[1] !== info.size ||
      entry[2] !== info.mtimeMs ||
      entry[3] !== info.ctimeMs ||
      entry[4] !== info.ino
    )
      return undefined
  }
  return parsed.map
}

/**
 * Persists a complete first-generation map with what its walk saw (atomically, like the outline
 * cache), stamping the outline cache file as it is now: call it after saving the cache. Returns
 * false, writing nothing, when the snapshot would be racy: filesystem times are coarse (a clock tick
 * of a few milliseconds; 1–2 s on some filesystems), so a path modified shortly before the walk
 * `stat`ed it could change again with its mtime unmoved, which a walk would notice (a new entry, new
 * outline) and a `stat` would not. So every recorded mtime must be older than the walk's start by a
 * margin; else the next session walks and writes the snapshot. (A chmod in that window, seen only
 * in the ctime, is not guarded.)
 */
export async function writeMapSnapshot(
  file: string,
  key: SnapshotKey,
  cacheFile: string,
  map: MapSnapshot,
  trace: WalkTrace,
): Promise<boolean> {
  const started = trace.startedMs
  if (started === undefined) return false
  for (const stamp of trace.paths.values()) if (stamp && racy(stamp, started)) return false
  const cache = stampOf(cacheFile)
  const stored: StoredSnapshot = {
    key,
    cache: cache ? storedStamp(cache) : null,
    map: { text: map.text, files: map.files, outlined: map.outlined, visited: map.visited },
    paths: [...trace.paths].map(([path, stamp]) => (stamp ? [path, ...storedStamp(stamp)] : [path])),
  }
  await mkdir(dirname(file), { recursive: true })
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`
  try {
    await writeFile(temporary, JSON.stringify(stored))
    await rename(temporary, file)
    return true
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
}

/**
 * How much older than the walk a recorded mtime must be: well past a clock tick of sub-second
 * filesystems, and past the 2 s rounding of those keeping whole seconds (FAT).
 */
const RACY_MS = 1000
const RACY_WHOLE_SECONDS_MS = 3000

function racy(stamp: PathStamp, walkStartedMs: number): boolean {
  const margin = stamp.mtimeMs % 1000 === 0 ? RACY_WHOLE_SECONDS_MS : RACY_MS
  return stamp.mtimeMs > walkStartedMs - margin
}

function storedStamp(stamp: PathStamp): StoredStamp {
  return [stamp.size, stamp.mtimeMs, stamp.ctimeMs, stamp.ino]
}

function sameKey(stored: Record<string, unknown>, key: SnapshotKey): boolean {
  const names = Object.keys(key) as (keyof SnapshotKey)[]
  return Object.keys(stored).length === names.length && names.every((name) => stored[name] === key[name])
}

function sameStamp(recorded: readonly number[] | null, now: PathStamp | null): boolean {
  if (recorded === null || now === null) return recorded === now
  return (
    recorded[0] === now.size &&
    recorded[1] === now.mtimeMs &&
    recorded[2] === now.ctimeMs &&
    recorded[3] === now.ino
  )
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isStamp(value: unknown): value is StoredStamp {
  return Array.isArray(value) && value.length === 4 && value.every((part) => typeof part === 'number')
}

/** The snapshot's header; `readMapSnapshot` checks the paths' entries as it goes. */
function isStoredSnapshot(value: unknown): value is StoredSnapshot & { key: Record<string, unknown> } {
  if (!isRecord(value) || !isRecord(value.key) || !isRecord(value.map) || !Array.isArray(value.paths))
    return false
  if (value.cache !== null && !isStamp(value.cache)) return false
  const map = value.map
  if (
    typeof map.text !== 'string' ||
    typeof map.files !== 'number' ||
    typeof map.outlined !== 'number' ||
    typeof map.visited !== 'number'
  )
    return false
  return true
}
