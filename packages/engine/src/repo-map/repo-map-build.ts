import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DEFAULT_REPO_MAP_CHARS, type FileOutline, rankFiles, renderRepoMap } from '@z-engine/context'
import { loadOutliner } from './grammars.js'
import { forEachLimited, type WalkOptions, walkSourceFiles } from './walk.js'

/** Inputs of one repository-map build. */
export interface RepoMapBuildInput extends WalkOptions {
  /** The project root. */
  root: string
  /** Files the main agent touched, most relevant first, relative to the root. */
  touched?: readonly string[]
  /** `context.repo_map_chars` (default 6,000). */
  maxChars?: number
  /**
   * Outlines from earlier builds, keyed by path; entries whose size and mtime still match are reused
   * without reading or parsing, and the map is updated with this build's outlines.
   */
  cache?: OutlineCache
}

/** Outlines kept between builds of one project (see `RepoMapBuildInput.cache`). */
export type OutlineCache = Map<string, { size: number; mtimeMs: number; outline: FileOutline }>

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
  /** Paths visited by the walk. */
  visited: number
  durationMs: number
  /** Files or grammars that failed, with what to do; the map is built from the rest. */
  errors: string[]
}

/** How many files to parse between yields to the event loop, so a build never stalls a session. */
const FILES_PER_SLICE = 8

/**
 * Builds the repository map: walk (newest first, limits of spec 003), read, outline with tree-sitter,
 * rank and render. Parsing is synchronous wasm, so it yields to the event loop between small slices
 * of files; run it off the request path and await it only on the first request. Never throws except
 * when `signal` aborts.
 */
export async function buildRepoMap(input: RepoMapBuildInput): Promise<RepoMapBuild> {
  const started = performance.now()
  const loaded = await loadOutliner()
  if (!loaded.ok) {
    return {
      text: '',
      files: 0,
      outlined: 0,
      reused: 0,
      visited: 0,
      durationMs: performance.now() - started,
      errors: [loaded.error],
    }
  }
  const errors = [...loaded.errors]
  const walk = await walkSourceFiles(input.root, input)
  const cache = input.cache
  const outlines: FileOutline[] = []
  const fresh: typeof walk.files = []
  for (const file of walk.files) {
    const cached = cache?.get(file.path)
    if (cached && cached.size === file.size && cached.mtimeMs === file.mtimeMs) outlines.push(cached.outline)
    else fresh.push(file)
  }
  const reused = outlines.length
  const sources = new Map<string, string>()
  await forEachLimited(fresh, 16, async (file) => {
    try {
      sources.set(file.path, await readFile(join(input.root, file.path), 'utf8'))
    } catch (error) {
      errors.push(`${file.path}: could not read (${String(error)})`)
    }
  })
  const stats = new Map(walk.files.map((file) => [file.path, file]))
  let sliced = 0
  // Outline in path order so the result does not depend on read completion order.
  for (const path of [...sources.keys()].sort()) {
    if (++sliced % FILES_PER_SLICE === 0) {
      input.signal?.throwIfAborted()
      await new Promise<void>((resolve) => setImmediate(resolve))
    }
    const result = loaded.outliner.outline(path, sources.get(path)!)
    if (!result.ok) {
      errors.push(result.error)
      continue
    }
    outlines.push(result.outline)
    const stat = stats.get(path)!
    cache?.set(path, { size: stat.size, mtimeMs: stat.mtimeMs, outline: result.outline })
  }
  if (cache) {
    for (const path of cache.keys()) if (!stats.has(path)) cache.delete(path)
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
    visited: walk.visited,
    durationMs: performance.now() - started,
    errors,
  }
}
