import { createHash } from 'node:crypto'
import { type Dirent, readdirSync, readFileSync, type Stats, statSync } from 'node:fs'
import { join } from 'node:path'
import {
  createGlobMatcher,
  type GlobMatcher,
  languageForPath,
  REPO_MAP_MAX_FILE_BYTES,
  REPO_MAP_MAX_FILES,
  REPO_MAP_MAX_PATHS,
} from '@z-engine/context'

/** One source file chosen for the map. */
export interface SourceFile {
  /** Relative to the root, `/`-separated. */
  path: string
  size: number
  mtimeMs: number
}

/** What the walk found. */
export interface WalkResult {
  /** Source files, newest first (ties by path), at most `maxFiles`. */
  files: SourceFile[]
  /** Paths (files and folders) visited. */
  visited: number
  /** True when the walk stopped at `maxPaths`. */
  truncated: boolean
  /** Source files skipped for being over `maxFileBytes`. */
  skippedLarge: number
}

/** Limits of {@link walkSourceFiles}; the defaults are spec 003's. */
export interface WalkOptions {
  maxPaths?: number
  maxFiles?: number
  maxFileBytes?: number
  signal?: AbortSignal
  /**
   * Filled with every path the result depends on and what the walk saw there (the map's snapshot
   * checks them later with `stat` alone instead of walking again).
   */
  trace?: WalkTrace | undefined
}

/**
 * What `stat` gave for a path: size, mtime, ctime (a chmod or chown changes only the ctime) and inode
 * (a file replaced by a rename, as editors and atomic writers do, gets a new one).
 */
export interface PathStamp {
  size: number
  mtimeMs: number
  ctimeMs: number
  ino: number
}

/**
 * Paths a walk depended on, with their stamp when it looked (`null`: absent or not stat-able): every
 * folder it listed (stamped before listing, so a change during the walk shows as a different
 * mtime; an entry added, removed or renamed changes its folder's mtime), every ignore file it read
 * or found missing, and every candidate source file, those over the size limit and beyond the
 * newest-first cut included (the cut depends on them).
 */
export interface WalkTrace {
  paths: Map<string, PathStamp | null>
  /** Wall-clock time (ms since the epoch) before the walk's first `stat`; set by the walk. */
  startedMs?: number
  /**
   * How many of `paths`, at its end, are candidate source files (set by a finished walk); the ones
   * before them are its listing: folders listed and ignore files read.
   */
  candidates?: number
  /**
   * For each folder listed in full, a digest of the entries the walk took from it (kind and name):
   * a folder whose mtime moved with the same entries (a temp file come and gone, as an atomic save
   * leaves) lists the same (see {@link relistedDigest}).
   */
  folders?: Map<string, string>
  /** Set by the walk when it stopped at `maxPaths`. */
  truncated?: boolean
}

/** The stamp of `path` now, or null when it is absent or cannot be stat-ed. */
export function stampOf(path: string): PathStamp | null {
  try {
    const info = statSync(path, { throwIfNoEntry: false })
    return info ? stampOfStats(info) : null
  } catch {
    return null
  }
}

// Never worth walking, ignored or not: VCS internals and dependency trees.
const ALWAYS_SKIPPED = new Set(['.git', '.hg', '.svn', 'node_modules'])

// The walk makes one call per folder and per source file (over 1,000 in a mid-sized repository) and
// the first request waits for it (issue 17). Node's synchronous calls cost a fraction of the promise
// forms' (1,000 stats: 15–20 ms of CPU against 50–75 ms), so the walk uses them and gives the event
// loop back at least every SLICE_MS, keeping the session responsive.
const SLICE_MS = 8

/** Yields to the event loop once `SLICE_MS` have passed since the last yield. */
function slicer(): () => Promise<void> {
  let since = performance.now()
  return async () => {
    if (performance.now() - since < SLICE_MS) return
    await new Promise((resolve) => setImmediate(resolve))
    since = performance.now()
  }
}

interface IgnoreScope {
  /** The folder holding the .gitignore, relative to the root ('' for the root). */
  base: string
  matcher: GlobMatcher
}

/**
 * Walks the project breadth-first in name order (at most `maxPaths` paths), honouring .gitignore
 * files at every level and .git/info/exclude, never following symbolic links. Source files the map
 * can outline are then ordered newest first and cut to `maxFiles`; files over `maxFileBytes` are
 * skipped (usually generated).
 */
export async function walkSourceFiles(root: string, options: WalkOptions = {}): Promise<WalkResult> {
  const maxPaths = options.maxPaths ?? REPO_MAP_MAX_PATHS
  const maxFiles = options.maxFiles ?? REPO_MAP_MAX_FILES
  const maxFileBytes = options.maxFileBytes ?? REPO_MAP_MAX_FILE_BYTES
  const pause = slicer()
  if (options.trace) options.trace.startedMs = Date.now()
  const trace = options.trace?.paths
  const folders = new Map<string, string>()
  if (options.trace) options.trace.folders = folders
  trace?.set(EXCLUDE_FILE, stampOf(join(root, EXCLUDE_FILE)))
  const rootScopes = excludeScopes(root)

  const candidates: string[] = []
  let visited = 0
  let truncated = false
  const queue: { dir: string; scopes: IgnoreScope[] }[] = [{ dir: '', scopes: rootScopes }]
  while (queue.length > 0 && !truncated) {
    options.signal?.throwIfAborted()
    const { dir, scopes: parentScopes } = queue.shift()!
    const absolute = dir === '' ? root : join(root, dir)
    await pause()
    trace?.set(dir, stampOf(absolute))
    let entries: Dirent[]
    try {
      entries = readdirSync(absolute, { withFileTypes: true })
    } catch {
      continue // unreadable folder: skip it, the map is best effort
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    let scopes = parentScopes
    if (hasIgnoreFile(entries)) {
      trace?.set(ignoreFileOf(dir), stampOf(join(absolute, '.gitignore')))
      scopes = withIgnoreFile(parentScopes, root, dir)
    }
    const taken: string[] = []
    for (const entry of entries) {
      if (visited >= maxPaths) {
        truncated = true
        break
      }
      const kind = visibleKind(entry, dir, scopes)
      if (kind === undefined) continue
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`
      visited++
      taken.push(kind + entry.name)
      if (kind === 'd') queue.push({ dir: path, scopes })
      else if (languageForPath(path)) candidates.push(path)
    }
    if (options.trace && !truncated) folders.set(dir, digestOf(taken))
  }
  if (options.trace) options.trace.truncated = truncated

  const stamped: [string, PathStamp | null][] = []
  for (const path of candidates) {
    await pause()
    options.signal?.throwIfAborted()
    const stamp = stampOf(join(root, path)) // null: unreadable or vanished since the listing
    trace?.set(path, stamp)
    stamped.push([path, stamp])
  }
  if (options.trace) options.trace.candidates = candidates.length
  return { ...chooseSourceFiles(stamped, { maxFiles, maxFileBytes }), visited, truncated }
}

/**
 * The map's files among the candidate source files a listing found, from their stamps: vanished or
 * unreadable ones (null) left out, those over `maxFileBytes` skipped, the rest newest first (ties by
 * path) and cut to `maxFiles`.
 */
export function chooseSourceFiles(
  stamped: readonly (readonly [string, PathStamp | null])[],
  limits: { maxFiles: number; maxFileBytes: number },
): { files: SourceFile[]; skippedLarge: number } {
  const files: SourceFile[] = []
  let skippedLarge = 0
  for (const [path, stamp] of stamped) {
    if (stamp === null) continue
    if (stamp.size > limits.maxFileBytes) skippedLarge++
    else files.push({ path, size: stamp.size, mtimeMs: stamp.mtimeMs })
  }
  files.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return { files: files.slice(0, limits.maxFiles), skippedLarge }
}

function stampOfStats(info: Stats): PathStamp {
  return { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, ino: info.ino }
}

/**
 * Lists `dir` again as a walk would, knowing which ignore files it found (`hadIgnoreFile(path)`, a
 * path like `a/.gitignore`; they must be unchanged, their contents are read again), and gives the
 * digest of the entries it would take, or undefined when the folder cannot be listed or its own
 * ignore file came or went. Equal to the walk's digest for the folder: the same entries.
 */
export function relistedDigest(
  root: string,
  dir: string,
  hadIgnoreFile: (path: string) => boolean,
): string | undefined {
  let entries: Dirent[]
  try {
    entries = readdirSync(dir === '' ? root : join(root, dir), { withFileTypes: true })
  } catch {
    return undefined
  }
  if (hasIgnoreFile(entries) !== hadIgnoreFile(ignoreFileOf(dir))) return undefined
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  let scopes = excludeScopes(root)
  const parts = dir === '' ? [] : dir.split('/')
  for (let depth = 0; depth <= parts.length; depth++) {
    const base = parts.slice(0, depth).join('/')
    if (hadIgnoreFile(ignoreFileOf(base))) scopes = withIgnoreFile(scopes, root, base)
  }
  const taken: string[] = []
  for (const entry of entries) {
    const kind = visibleKind(entry, dir, scopes)
    if (kind !== undefined) taken.push(kind + entry.name)
  }
  return digestOf(taken)
}

/** 'd' or 'f' for an entry the walk takes (a folder to list, a file to count), else undefined. */
function visibleKind(entry: Dirent, dir: string, scopes: readonly IgnoreScope[]): 'd' | 'f' | undefined {
  if (entry.isSymbolicLink() || ALWAYS_SKIPPED.has(entry.name)) return undefined
  const isDirectory = entry.isDirectory()
  if (!isDirectory && !entry.isFile()) return undefined
  const path = dir === '' ? entry.name : `${dir}/${entry.name}`
  if (isIgnored(scopes, path, isDirectory)) return undefined
  return isDirectory ? 'd' : 'f'
}

/** The repository's own excludes (not shared through .gitignore), relative to the root. */
const EXCLUDE_FILE = '.git/info/exclude'

/** The scopes every folder starts from: `.git/info/exclude`, when it has patterns. */
function excludeScopes(root: string): IgnoreScope[] {
  const exclude = readLines(join(root, EXCLUDE_FILE))
  return exclude.length > 0 ? [{ base: '', matcher: createGlobMatcher(exclude) }] : []
}

function hasIgnoreFile(entries: readonly Dirent[]): boolean {
  return entries.some((entry) => entry.name === '.gitignore' && entry.isFile())
}

function ignoreFileOf(dir: string): string {
  return dir === '' ? '.gitignore' : `${dir}/.gitignore`
}

/** `scopes` with the patterns of `dir`'s ignore file, when it has any. */
function withIgnoreFile(scopes: IgnoreScope[], root: string, dir: string): IgnoreScope[] {
  const patterns = readLines(join(root, ignoreFileOf(dir)))
  return patterns.length > 0 ? [...scopes, { base: dir, matcher: createGlobMatcher(patterns) }] : scopes
}

function digestOf(taken: readonly string[]): string {
  return createHash('sha1').update(taken.join('\n')).digest('base64')
}

function isIgnored(scopes: readonly IgnoreScope[], path: string, isDirectory: boolean): boolean {
  for (const scope of scopes) {
    const relative = scope.base === '' ? path : path.slice(scope.base.length + 1)
    if (scope.matcher.matches(relative, isDirectory)) return true
  }
  return false
}

function readLines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8')
      .split(/\r?\n/)
      .filter((line) => line.trim() !== '' && !line.startsWith('#'))
  } catch {
    return []
  }
}

/** Runs `task` over items with at most `limit` in flight. */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!
      await task(item)
    }
  })
  await Promise.all(workers)
}
