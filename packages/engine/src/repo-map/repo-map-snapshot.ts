import { createHash, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
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
import {
  chooseSourceFiles,
  type PathStamp,
  relistedDigest,
  type SourceFile,
  stampOf,
  type WalkOptions,
  type WalkTrace,
} from './walk.js'

/**
 * Bumped when the walk, the ranking or the rendering change the text a set of files gives. The key
 * also holds the outline format and the stamp of this module's own file, so a rebuilt or upgraded
 * engine never trusts an older engine's snapshot even when nobody bumped this.
 */
const SNAPSHOT_VERSION = 4

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
  /** The walk's listing (folders, ignore files), then its candidate source files. */
  paths: StoredPath[]
  /** How many of `paths` are the listing. */
  listed: number
  /** Each folder's digest of the entries the walk took (`WalkTrace.folders`). */
  folders: Record<string, string>
  /** Whether the walk stopped at its path limit (then no folder is listed again). */
  truncated: boolean
  /** The files in the map, with the sha1 of their bytes then. */
  hashes: Record<string, string>
}

/**
 * What a snapshot says of the project now:
 * - `unchanged`: nothing the map depended on changed; its text is the map.
 * - `listing`: no ignore file changed and every folder whose mtime moved still lists the same
 *   entries (listed again), so a walk would find the same candidate source files
 *   (`files` chosen from their stamps now, as the walk would); some of them changed, so the map
 *   must be rebuilt from the outline cache, without walking. `trace` is what that walk would have
 *   recorded, for the next snapshot.
 * - undefined: anything else (no usable snapshot, another key, a folder or ignore file changed).
 */
export type SnapshotCheck =
  | { kind: 'unchanged'; map: MapSnapshot }
  | { kind: 'listing'; files: SourceFile[]; visited: number; trace: WalkTrace }

/**
 * Checks the snapshot against the project with `stat` alone (see {@link SnapshotCheck}). One pass
 * that checks each entry's shape as it compares it (a non-number never equals a stat figure): this
 * runs before the first request, over every path of the project.
 */
export function checkMapSnapshot(
  file: string,
  key: SnapshotKey,
  cacheFile: string,
  limits: { maxFiles: number; maxFileBytes: number },
): SnapshotCheck | undefined {
  const startedMs = Date.now()
  let parsed: unknown
  try {
    parsed = JSON.parse(verifiedBody(readFileSync(file, 'utf8')) ?? 'null')
  } catch {
    return undefined
  }
  if (!isStoredSnapshot(parsed) || !sameKey(parsed.key, key)) return undefined
  const prefix = key.root.endsWith(sep) ? key.root : key.root + sep
  const entries = parsed.paths as unknown[]
  const listed = parsed.listed
  const paths = new Map<string, PathStamp | null>()
  const candidates: [string, PathStamp | null][] = []
  const folders = new Map(Object.entries(parsed.folders))
  const changed: string[] = []
  // The ignore files the walk read (listing entries present then): a folder listed again uses them.
  const ignoreFiles = new Set<string>()
  for (let index = 0; index < listed; index++) {
    const entry = entries[index]
    if (Array.isArray(entry) && entry.length === 5 && typeof entry[0] === 'string' && isIgnoreFile(entry[0]))
      ignoreFiles.add(entry[0])
  }
  let same = sameStamp(parsed.cache, stampOf(cacheFile))
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]
    if (!Array.isArray(entry) || typeof entry[0] !== 'string') return undefined
    const path: string = entry[0]
    const now = stampOf(path === '' ? key.root : prefix + path)
    let unchanged: boolean
    if (entry.length === 1) unchanged = now === null
    else if (entry.length === 5) unchanged = sameStamp(entry.slice(1), now)
    else return undefined
    if (!unchanged && index >= listed) changed.push(path)
    if (index < listed) {
      // A folder's mtime moved: listed again, it must give the entries the walk took. An ignore file
      // changed, or a folder now different: a walk could find other candidates.
      if (!unchanged) {
        same = false
        const digest = folders.get(path)
        if (digest === undefined || now === null || parsed.truncated !== false) return undefined
        if (relistedDigest(key.root, path, (file) => ignoreFiles.has(file)) !== digest) return undefined
      }
      paths.set(path, now)
    } else {
      same &&= unchanged
      candidates.push([path, now])
    }
  }
  if (same) return { kind: 'unchanged', map: parsed.map }
  const files = chooseSourceFiles(candidates, limits).files
  // The same files in the map with the same bytes (saved again, checked out, an edit undone): the
  // same outlines, so the same text (outlines are ranked in path order, whatever the dates).
  if (
    sameFiles(files, parsed.hashes) &&
    changed.every((path) => sameBytes(prefix + path, parsed.hashes[path]))
  )
    return { kind: 'unchanged', map: parsed.map }
  for (const [path, stamp] of candidates) paths.set(path, stamp)
  return {
    kind: 'listing',
    files,
    visited: parsed.map.visited,
    trace: { paths, startedMs, candidates: candidates.length, folders, truncated: false },
  }
}

/**
 * Persists a complete first-generation map with what its walk saw (atomically, like the outline
 * cache), stamping the outline cache file as it is now: call it after saving the cache. Stamps
 * may be racy: filesystem times are coarse (a clock tick of a few milliseconds; 1–2 s on some
 * filesystems), so a path modified shortly before the walk `stat`ed it could change again with its
 * mtime unmoved, which a walk would notice (a new entry, new outline) and a `stat` would not. So a
 * recorded mtime must be older than the walk's start by a margin. A source file that is not (one
 * just saved or checked out) is recorded as changed, so the next session rebuilds from the listing
 * and the outline cache; a folder or ignore file that is not means no snapshot (returns false,
 * writing nothing) and the next session walks. (A chmod in that window, seen only in the ctime, is
 * not guarded.)
 */
export async function writeMapSnapshot(
  file: string,
  key: SnapshotKey,
  cacheFile: string,
  map: MapSnapshot,
  trace: WalkTrace,
  hashes: ReadonlyMap<string, string>,
): Promise<boolean> {
  const started = trace.startedMs
  if (started === undefined || trace.candidates === undefined || trace.truncated === undefined) return false
  const listed = trace.paths.size - trace.candidates
  const paths: StoredPath[] = []
  for (const [path, stamp] of trace.paths) {
    if (stamp === null) paths.push([path])
    else if (!racy(stamp, started)) paths.push([path, ...storedStamp(stamp)])
    // A racy folder or ignore file could hide another listing: no snapshot.
    else if (paths.length < listed) return false
    // A racy source file is recorded as changed: the next session rebuilds from the listing.
    else paths.push([path, ...CHANGED])
  }
  const cache = stampOf(cacheFile)
  const stored: StoredSnapshot = {
    key,
    cache: cache ? storedStamp(cache) : null,
    map: { text: map.text, files: map.files, outlined: map.outlined, visited: map.visited },
    paths,
    listed,
    folders: Object.fromEntries(trace.folders ?? []),
    hashes: Object.fromEntries(hashes),
    truncated: trace.truncated,
  }
  await mkdir(dirname(file), { recursive: true })
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`
  try {
    await writeFile(temporary, sealSnapshot(JSON.stringify(stored)))
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

/** A stamp no `stat` gives (a size of -1): the file counts as changed at the next check. */
const CHANGED: StoredStamp = [-1, -1, -1, -1]

function racy(stamp: PathStamp, walkStartedMs: number): boolean {
  const margin = stamp.mtimeMs % 1000 === 0 ? RACY_WHOLE_SECONDS_MS : RACY_MS
  return stamp.mtimeMs > walkStartedMs - margin
}

/**
 * The file's text: a digest of the body on the first line, then the body. A listing read from the
 * snapshot stands in for a walk, so an entry lost or moved by damage or a hand edit must not pass as
 * a smaller listing: the digest refuses any body this module did not write.
 */
export function sealSnapshot(body: string): string {
  return `${digestOf(body)}\n${body}`
}

function verifiedBody(text: string): string | undefined {
  const newline = text.indexOf('\n')
  if (newline < 0) return undefined
  const body = text.slice(newline + 1)
  return text.slice(0, newline) === digestOf(body) ? body : undefined
}

function digestOf(body: string): string {
  return createHash('sha256').update(body).digest('hex')
}

function sameFiles(files: readonly SourceFile[], hashes: Record<string, string>): boolean {
  return (
    files.length === Object.keys(hashes).length && files.every((file) => Object.hasOwn(hashes, file.path))
  )
}

/** Whether the file's bytes have this sha1 (not in the map, `hash` undefined: no need to read it). */
function sameBytes(path: string, hash: string | undefined): boolean {
  if (hash === undefined) return true
  try {
    return createHash('sha1').update(readFileSync(path)).digest('hex') === hash
  } catch {
    return false
  }
}

function isIgnoreFile(path: string): boolean {
  return path === '.gitignore' || path.endsWith('/.gitignore')
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
  if (typeof value.truncated !== 'boolean' || !isRecord(value.folders) || !isRecord(value.hashes))
    return false
  if (!Object.values(value.hashes).every((hash) => typeof hash === 'string')) return false
  if (!Object.values(value.folders).every((digest) => typeof digest === 'string')) return false
  if (
    typeof value.listed !== 'number' ||
    !Number.isInteger(value.listed) ||
    value.listed < 0 ||
    value.listed > value.paths.length
  )
    return false
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
