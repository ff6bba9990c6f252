import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DEFAULT_REPO_MAP_CHARS, type FileOutline, rankFiles, renderRepoMap } from '@z-engine/context'
import { outlineFiles } from './outline-files.js'
import { forEachLimited, type SourceFile, type WalkOptions, walkSourceFiles } from './walk.js'

/** Inputs of one repository-map build. */
export interface RepoMapBuildInput extends WalkOptions {
  /** The project root. */
  root: string
  /** Files the main agent touched, most relevant first, relative to the root. */
  touched?: readonly string[]
  /** `context.repo_map_chars` (default 6,000). */
  maxChars?: number
  /**
   * Outlines from earlier builds (this process's or a persisted one), keyed by path. An entry is
   * reused without reading when its size and mtime still match, or after reading when its content
   * hash does (a checkout or copy changes mtimes, not contents); the map is updated with this
   * build's outlines and loses entries for files no longer chosen.
   */
  cache?: OutlineCache
  /**
   * False: never load tree-sitter; files without a usable cached outline are counted in `pending`
   * and left out (a cache-only build, cheap enough for the first request). Default true.
   */
  parse?: boolean
  /**
   * May a handful of small files be parsed on this thread rather than in the worker (default false)?
   * Starting the thread costs more than such a parse, but it runs on the other core: a session's
   * first build keeps to the worker so it never delays the first request; later rebuilds may not.
   */
  parseHere?: boolean
  /**
   * The walk's result when it is known without walking (the snapshot's listing, still valid): the
   * files chosen and the paths visited.
   */
  listing?: { files: SourceFile[]; visited: number }
  /** Called after each batch of parsed outlines went into `cache`. */
  onBatch?: () => void
}

/** One cached outline and the file it was made from. */
export interface CachedOutline {
  size: number
  mtimeMs: number
  /** sha1 of the file's bytes (hex). */
  hash: string
  outline: FileOutline
}

/** Outlines kept between builds of one project (see `RepoMapBuildInput.cache`). */
export type OutlineCache = Map<string, CachedOutline>

/** A finished build: the section text and what went into it. */
export interface RepoMapBuild {
  /** The repository-map section ('' when nothing could be outlined). */
  text: string
  /** Source files chosen by the walk. */
  files: number
  /** Files outlined (parsed now or reused from the cache). */
  outlined: number
  /** Of those, reused from the cache. */
  reused: number
  /** Files a cache-only build (`parse: false`) could not outline; 0 when the map is complete. */
  pending: number
  /** Whether `cache` changed (outlines added, refreshed or dropped): worth persisting. */
  cacheUpdated: boolean
  /** Paths visited by the walk. */
  visited: number
  durationMs: number
  /**
   * True when the text is the persisted snapshot of an earlier complete build, every path it
   * depended on unchanged (nothing walked, no outline loaded; `files`, `outlined` and `visited` are
   * that build's, `reused` equals `outlined`).
   */
  fromSnapshot: boolean
  /** True when the files came from the snapshot's still-valid listing rather than a walk. */
  listingFromSnapshot: boolean
  /** Files or grammars that failed, with what to do; the map is built from the rest. */
  errors: string[]
  /**
   * The files chosen and paths visited (a later build of the same tree may take them as `listing`);
   * absent when the text is a snapshot's.
   */
  listing?: { files: SourceFile[]; visited: number }
}

/** Files per message to the parsing thread. */
const FILES_PER_BATCH = 16
/**
 * Files in a build's first message: small, so that the first outlines come back soon and a session
 * that closes waiting for them (to make progress, see `RepoMapService.close`) waits little.
 */
const FIRST_BATCH_FILES = 4

/** A build parsing at most this many files (and bytes) does it on the session's thread. */
const PARSE_HERE_MAX_FILES = 16
const PARSE_HERE_MAX_BYTES = 128 * 1024

/**
 * Builds the repository map: walk (newest first, limits of spec 003), reuse cached outlines of
 * unchanged files, read and outline the rest with tree-sitter, rank and render. Tree-sitter loads
 * only when some file needs parsing (only the grammars of the languages met), and parses in a
 * worker thread (`outlineFiles`), so a build never stalls the session's event loop for long; with
 * `parseHere`, a handful of small files are parsed here, as starting the thread would cost more. Never throws except when `signal` aborts (outlines parsed
 * before the abort stay in `cache`).
 */
export async function buildRepoMap(input: RepoMapBuildInput): Promise<RepoMapBuild> {
  const started = performance.now()
  const errors: string[] = []
  const walk = input.listing ?? (await walkSourceFiles(input.root, input))
  const cache = input.cache
  const outlines: FileOutline[] = []
  const unknown: typeof walk.files = []
  for (const file of walk.files) {
    const cached = cache?.get(file.path)
    if (cached && cached.size === file.size && cached.mtimeMs === file.mtimeMs) outlines.push(cached.outline)
    else unknown.push(file)
  }
  let cacheUpdated = false
  const stats = new Map(walk.files.map((file) => [file.path, file]))
  // A file the cache knows (its stat changed) may hold the same bytes: read it to compare hashes.
  // One the cache has never seen needs a parse; a cache-only build counts it without reading it.
  const stale = input.parse === false ? unknown.filter((file) => cache?.has(file.path)) : unknown
  let pending = input.parse === false ? unknown.length - stale.length : 0
  // Read in path order, batch by batch, each batch read while the one before is parsing: the first
  // outlines come back without waiting for every file to be read, and a build stopped part way has
  // parsed (and keeps in `cache`) a prefix of the files rather than nothing.
  const ordered = [...stale].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  const readBatch = async (batch: readonly SourceFile[]) => {
    const sources = new Map<string, { text: string; hash: string }>()
    await forEachLimited(batch, 16, async (file) => {
      try {
        const bytes = await readFile(join(input.root, file.path))
        const hash = createHash('sha1').update(bytes).digest('hex')
        const cached = cache?.get(file.path)
        if (cached && cached.hash === hash) {
          cache!.set(file.path, { ...cached, size: file.size, mtimeMs: file.mtimeMs })
          cacheUpdated = true
          outlines.push(cached.outline)
        } else sources.set(file.path, { text: bytes.toString('utf8'), hash })
      } catch (error) {
        errors.push(`${file.path}: could not read (${String(error)})`)
      }
    })
    // Outline in path order so the result does not depend on read completion order.
    return batch.flatMap((file) => {
      const source = sources.get(file.path)
      return source === undefined ? [] : [{ path: file.path, ...source }]
    })
  }
  let parsed = 0
  if (input.parse === false) pending += (await readBatch(ordered)).length
  else {
    const here = input.parseHere === true && parsesHere(ordered)
    const batches = batchesOf(ordered)
    let next = batches.length > 0 ? readBatch(batches[0]!) : undefined
    for (let index = 0; next !== undefined; index++) {
      const batch = await next
      next = index + 1 < batches.length ? readBatch(batches[index + 1]!) : undefined
      if (batch.length === 0) continue
      input.signal?.throwIfAborted()
      const outlined = await outlineFiles(
        batch.map(({ path, text }) => ({ path, text })),
        { here, ...(input.signal ? { signal: input.signal } : {}) },
      )
      if (!outlined.ok) {
        errors.push(outlined.error)
        // The read in flight still settles before the build does (it may touch `cache`).
        await next
        break
      }
      errors.push(...outlined.errors)
      outlined.results.forEach((result, index) => {
        if (!result.ok) {
          errors.push(result.error)
          return
        }
        const { path, hash } = batch[index]!
        outlines.push(result.outline)
        parsed++
        const stat = stats.get(path)!
        cache?.set(path, { size: stat.size, mtimeMs: stat.mtimeMs, hash, outline: result.outline })
        cacheUpdated = cache !== undefined
      })
      input.onBatch?.()
    }
  }
  if (cache) {
    for (const path of cache.keys()) {
      if (stats.has(path)) continue
      cache.delete(path)
      cacheUpdated = true
    }
  }
  // Ranking must not depend on which outlines came from the cache.
  outlines.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  const text = renderRepoMap(
    rankFiles(outlines, input.touched ?? []),
    input.maxChars ?? DEFAULT_REPO_MAP_CHARS,
  )
  return {
    text,
    files: walk.files.length,
    outlined: outlines.length,
    reused: outlines.length - parsed,
    pending,
    cacheUpdated,
    visited: walk.visited,
    durationMs: performance.now() - started,
    fromSnapshot: false,
    listingFromSnapshot: input.listing !== undefined,
    errors,
    listing: { files: walk.files, visited: walk.visited },
  }
}

/** The files split into messages for the parsing thread: a small first one, then full ones. */
function batchesOf(files: readonly SourceFile[]): SourceFile[][] {
  const batches: SourceFile[][] = []
  for (let start = 0; start < files.length; ) {
    const size = batches.length === 0 ? FIRST_BATCH_FILES : FILES_PER_BATCH
    batches.push(files.slice(start, start + size))
    start += size
  }
  return batches
}

/** Whether a handful of small files, cheaper to parse here than to start the thread for. */
function parsesHere(files: readonly SourceFile[]): boolean {
  if (files.length > PARSE_HERE_MAX_FILES) return false
  let bytes = 0
  for (const file of files) bytes += file.size
  return bytes <= PARSE_HERE_MAX_BYTES
}
