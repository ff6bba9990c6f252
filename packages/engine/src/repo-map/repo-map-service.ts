import { DEFAULT_REPO_MAP_CHARS } from '@z-engine/context'
import { buildRepoMap, type OutlineCache, type RepoMapBuild } from './repo-map-build.js'

/** How a session's repository map is configured. */
export interface RepoMapServiceOptions {
  /** The project root (the main agent's root). */
  root: string
  /** `context.repo_map` (default true); false turns the map off. */
  enabled?: boolean
  /** `context.repo_map_chars` (default 6,000). */
  maxChars?: number
  /** A worktree agent's service: it never builds and its text is always ''. */
  worktreeAgent?: boolean
  /** Called with each finished build, e.g. to log errors or timings. */
  onBuild?: (build: RepoMapBuild) => void
}

/**
 * Keeps one session's repository-map section byte-stable (spec 003): `start()` builds in the
 * background when the session opens, the first request awaits `text()`, and every later request
 * gets the same string until `invalidate()` (after a compaction or a settings reload) makes the next
 * `text()` rebuild with the files touched so far. Worktree agents get no map: don't ask for one.
 */
export class RepoMapService {
  private current: Promise<string> | undefined
  private readonly touched: string[] = []
  // Rebuilds after a compaction re-parse only files that changed since.
  private readonly cache: OutlineCache = new Map()

  constructor(private readonly options: RepoMapServiceOptions) {}

  /** Starts building if no build is current; safe to call more than once. */
  start(): void {
    if (this.off() || this.current) return
    const touched = this.touchedFiles()
    this.current = buildRepoMap({
      root: this.options.root,
      touched,
      maxChars: this.options.maxChars ?? DEFAULT_REPO_MAP_CHARS,
      cache: this.cache,
    }).then(
      (build) => {
        this.options.onBuild?.(build)
        return build.text
      },
      // A failed build leaves the map out rather than failing the request.
      () => '',
    )
  }

  /** The section text ('' when off or empty); the same string until invalidated. */
  text(): Promise<string> {
    if (this.off()) return Promise.resolve('')
    this.start()
    return this.current!
  }

  /**
   * Records files the main agent read or wrote (relative to the root), newest last; they rank first
   * at the next rebuild. The current text does not change.
   */
  touch(paths: readonly string[]): void {
    for (const path of paths) {
      const index = this.touched.indexOf(path)
      if (index >= 0) this.touched.splice(index, 1)
      this.touched.push(path)
    }
  }

  /** Drops the current map; the next `text()` (or `start()`) rebuilds. */
  invalidate(): void {
    this.current = undefined
  }

  private off(): boolean {
    return this.options.enabled === false || this.options.worktreeAgent === true
  }

  /** Touched paths, most recent first (the order ranking uses). */
  touchedFiles(): string[] {
    return this.touched.slice().reverse()
  }
}
