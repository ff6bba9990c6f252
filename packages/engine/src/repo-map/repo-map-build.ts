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
}

/** Files per message to the parsing thread; a stopped build waits for at most one batch. */
const FILES_PER_BATCH = 16

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
  const sources = new Map<string, { text: string; hash: string }>()
  await forEachLimited(unknown, 16, async (file) => {
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
  const reused = outlines.length
  const stats = new Map(walk.files.map((file) => [file.path, file]))
  let pending = 0
  if (input.parse === false) pending = sources.size
  else {
    // Outline in path order so the result does not depend on read completion order.
    const paths = [...sources.keys()].sort()
    let bytes = 0
    for (const source of sources.values()) bytes += source.text.length
    // A handful of small files parse in a few milliseconds: cheaper than starting the thread.
    const here =
      input.parseHere === true && paths.length <= PARSE_HERE_MAX_FILES && bytes <= PARSE_HERE_MAX_BYTES
    for (let start = 0; start < paths.length; start += FILES_PER_BATCH) {
      input.signal?.throwIfAborted()
      const batch = paths.slice(start, start + FILES_PER_BATCH)
      const outlined = await outlineFiles(
        batch.map((path) => ({ path, text: sources.get(path)!.text })),
        { here, ...(input.signal ? { signal: input.signal } : {}) },
      )
      if (!outlined.ok) {
        errors.push(outlined.error)
        break
      }
      errors.push(...outlined.errors)
      outlined.results.forEach((result, index) => {
        if (!result.ok) {
          errors.push(result.error)
          return
        }
        const path = batch[index]!
        outlines.push(result.outline)
        const stat = stats.get(path)!
        const hash = sources.get(path)!.hash
        cache?.set(path, { size: stat.size, mtimeMs: stat.mtimeMs, hash, outline: result.outline })
        cacheUpdated = cache !== undefined
      })
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
    reused,
    pending,
    cacheUpdated,
    visited: walk.visited,
    durationMs: performance.now() - started,
    fromSnapshot: false,
    listingFromSnapshot: input.listing !== undefined,
    errors,
  }
}
