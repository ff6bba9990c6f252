import { DEFAULT_REPO_MAP_CHARS } from '@z-engine/context'
import { buildRepoMap, type OutlineCache, type RepoMapBuild } from './repo-map-build.js'
import {
  checkMapSnapshot,
  type SnapshotCheck,
  type SnapshotKey,
  snapshotFileFor,
  snapshotKey,
  writeMapSnapshot,
} from './repo-map-snapshot.js'
import { loadOutlineCache, saveOutlineCache } from './repo-map-store.js'
import type { WalkTrace } from './walk.js'

/** A snapshot's file, the key it must match and the outline cache it sits beside. */
interface SnapshotPlace {
  file: string
  key: SnapshotKey
  cacheFile: string
}

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
  /**
   * Where outlines persist between sessions (see `repoMapCacheFile`); without it they live only as
   * long as the service.
   */
  cacheFile?: string
  /** Called with each finished build, e.g. to log errors or timings. */
  onBuild?: (build: RepoMapBuild) => void
  /**
   * Called once with the map when the first request went out without it (the build was not ready),
   * so the session can hand it to the model as a reminder; the system prompt gets it at the next
   * rebuild. Not called when the map is empty or the service was invalidated or closed meanwhile.
   */
  onLate?: (text: string) => void
}

/**
 * Keeps one session's repository-map section byte-stable (spec 003) without ever delaying the
 * first request on tree-sitter (issue 17): `start()` begins a build when the session opens. The
 * first `text()` waits only for a cache-only build from the persisted outlines — the full map when
 * every file is unchanged since a past session, else '' (and the finished map reaches `onLate`).
 * Before that, a session's first build tries the snapshot of the last complete first-generation map
 * (`repo-map-snapshot.ts`): when no path the walk depended on changed, its text is the map at once,
 * with no walk and no outline cache read (loaded only if a later generation needs it).
 * Every later `text()` returns the same string until `invalidate()` (after a compaction or a settings
 * reload); the next `text()` then waits for an incremental rebuild ranking the touched files first.
 * Worktree agents get no map: don't ask for one.
 */
export class RepoMapService {
  private readonly touched: string[] = []
  private cache: OutlineCache = new Map()
  private loaded: Promise<void> | undefined
  /** The complete build of the current generation. */
  private full: Promise<string> | undefined
  /** The current generation's cache-only result: its text, or undefined when files need parsing. */
  private quick: Promise<string | undefined> | undefined
  /** What `text()` returned in this generation. */
  private given: Promise<string> | undefined
  private generation = 0
  private firstGiven = false
  private readonly abort = new AbortController()
  /** Builds chain: a rebuild starts after the previous one settles (they share the cache). */
  private last: Promise<unknown> = Promise.resolve()
  /** A parsing build is running: its outlines so far are worth saving if it is stopped. */
  private parsing = false
  /** Settles when the running parse's first batch of outlines is in the cache (or the build ended). */
  private firstBatch: Promise<void> = Promise.resolve()

  constructor(private readonly options: RepoMapServiceOptions) {}

  /** Starts building if no build is current; safe to call more than once. */
  start(): void {
    if (this.off() || this.full || this.abort.signal.aborted) return
    let settleQuick: (text: string | undefined) => void = () => {}
    this.quick = new Promise((resolve) => {
      settleQuick = resolve
    })
    const previous = this.last
    const firstGeneration = this.generation === 0
    this.full = (async () => {
      await previous.catch(() => undefined)
      const touched = this.touchedFiles()
      const maxChars = this.options.maxChars ?? DEFAULT_REPO_MAP_CHARS
      // Only the first generation with nothing touched can match a snapshot (touched files rank first).
      const snapshot = firstGeneration && touched.length === 0 ? this.snapshotPlace(maxChars) : undefined
      const check = snapshot && this.checkSnapshot(snapshot)
      if (check?.kind === 'unchanged') {
        const reused = check.build
        settleQuick(reused.text)
        this.options.onBuild?.(reused)
        return reused.text
      }
      // Some source files changed but no folder or ignore file did: the same files, no walk.
      const listing = check?.kind === 'listing' ? check : undefined
      await this.load()
      const input = {
        root: this.options.root,
        touched,
        maxChars,
        cache: this.cache,
        signal: this.abort.signal,
        // Past the first request, a rebuild of a few changed files needs no parsing thread.
        parseHere: this.firstGiven,
        ...(listing ? { listing: { files: listing.files, visited: listing.visited } } : {}),
      }
      // A walk fills a new trace; a listing from the snapshot comes with its own.
      const newTrace = (): WalkTrace | undefined =>
        listing?.trace ?? (snapshot ? { paths: new Map() } : undefined)
      let trace: WalkTrace | undefined
      let walked: RepoMapBuild['listing']
      if (this.cache.size > 0) {
        trace = newTrace()
        const quick = await buildRepoMap({ ...input, parse: false, trace })
        // The parse below lists the same files: no second walk (its trace stands for both).
        walked = quick.listing
        if (quick.pending === 0) {
          settleQuick(quick.text)
          this.options.onBuild?.(quick)
          if (quick.cacheUpdated) await this.save()
          await this.persistSnapshot(snapshot, quick, trace)
          return quick.text
        }
      }
      settleQuick(undefined)
      this.parsing = true
      let batchIn = () => {}
      this.firstBatch = new Promise((resolve) => {
        batchIn = resolve
      })
      if (walked === undefined) trace = newTrace()
      const build = await buildRepoMap({
        ...input,
        ...(walked !== undefined ? { listing: walked } : {}),
        trace,
        onBatch: () => batchIn(),
      }).finally(() => batchIn())
      // Its files came from the snapshot only if the quick build's did.
      build.listingFromSnapshot = listing !== undefined
      this.parsing = false
      this.options.onBuild?.(build)
      if (build.cacheUpdated) await this.save()
      await this.persistSnapshot(snapshot, build, trace)
      return build.text
    })().catch(() => {
      // A failed or aborted build leaves the map out rather than failing the request.
      settleQuick(undefined)
      return ''
    })
    this.last = this.full
  }

  /** The section text ('' when off, empty or not ready for the first request); stable until invalidated. */
  text(): Promise<string> {
    if (this.off()) return Promise.resolve('')
    this.start()
    if (!this.full) return Promise.resolve('')
    this.given ??= this.firstGiven ? this.full : this.initialText()
    this.firstGiven = true
    return this.given
  }

  /** The current generation's complete map (waits for the build; for tests and tools). */
  built(): Promise<string> {
    if (this.off()) return Promise.resolve('')
    this.start()
    return this.full ?? Promise.resolve('')
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
    this.generation++
    this.full = undefined
    this.quick = undefined
    this.given = undefined
  }

  /**
   * Stops a running build and persists the outlines parsed so far, so the next session in this
   * project resumes where this one stopped. The service builds nothing after this. A parse that has
   * not yet had a batch back is given its first (small) one: without it, sessions shorter than the
   * parsing thread's start would each stop with nothing parsed, and the map of a project only ever
   * met by short `exec` runs would never complete (issue 40); with it, each session adds at least a
   * batch, and the next one starts where it stopped.
   */
  async close(): Promise<void> {
    this.generation++
    if (this.parsing) await Promise.race([this.firstBatch, this.last.catch(() => undefined)])
    this.abort.abort()
    await this.last.catch(() => undefined)
    if (this.parsing) await this.save()
  }

  /** Touched paths, most recent first (the order ranking uses). */
  touchedFiles(): string[] {
    return this.touched.slice().reverse()
  }

  private async initialText(): Promise<string> {
    const generation = this.generation
    const full = this.full!
    const ready = await this.quick
    if (ready !== undefined) return ready
    void full.then((text) => {
      if (text !== '' && generation === this.generation) this.options.onLate?.(text)
    })
    return ''
  }

  private off(): boolean {
    return this.options.enabled === false || this.options.worktreeAgent === true
  }

  /** Where this service's snapshot lives and what it must match; undefined without a cache file. */
  private snapshotPlace(maxChars: number): SnapshotPlace | undefined {
    const cacheFile = this.options.cacheFile
    if (!cacheFile) return undefined
    const key = snapshotKey(this.options.root, maxChars)
    return key && { file: snapshotFileFor(cacheFile), key, cacheFile }
  }

  /**
   * What the snapshot says (statSync only: no outline cache, no walk): the build it stands for when
   * nothing changed, or its still-valid listing.
   */
  private checkSnapshot(
    place: SnapshotPlace,
  ): { kind: 'unchanged'; build: RepoMapBuild } | Extract<SnapshotCheck, { kind: 'listing' }> | undefined {
    const started = performance.now()
    const check = checkMapSnapshot(place.file, place.key, place.cacheFile, place.key)
    if (check?.kind !== 'unchanged') return check
    const map = check.map
    return {
      kind: 'unchanged',
      build: {
        text: map.text,
        files: map.files,
        outlined: map.outlined,
        reused: map.outlined,
        pending: 0,
        cacheUpdated: false,
        visited: map.visited,
        durationMs: performance.now() - started,
        fromSnapshot: true,
        listingFromSnapshot: false,
        errors: [],
      },
    }
  }

  /**
   * Persists a complete, error-free first-generation build for the next session (best effort: without
   * it the next session takes the cache-only path). A build with errors is not kept, as a cache-only
   * build would not reproduce it.
   */
  private async persistSnapshot(
    place: SnapshotPlace | undefined,
    build: RepoMapBuild,
    trace: WalkTrace | undefined,
  ): Promise<void> {
    if (!place || !trace || build.pending !== 0 || build.errors.length > 0) return
    // Each file in the map has its cached outline, with the hash of the bytes it was made from.
    const hashes = new Map<string, string>()
    for (const [path, cached] of this.cache) hashes.set(path, cached.hash)
    await writeMapSnapshot(place.file, place.key, place.cacheFile, build, trace, hashes).catch(
      () => undefined,
    )
  }

  private load(): Promise<void> {
    const file = this.options.cacheFile
    this.loaded ??= file
      ? loadOutlineCache(file, this.options.root).then((cache) => {
          this.cache = cache
        })
      : Promise.resolve()
    return this.loaded
  }

  private async save(): Promise<void> {
    const file = this.options.cacheFile
    if (!file) return
    // Best effort: without the file the next session builds from scratch.
    await saveOutlineCache(file, this.options.root, this.cache).catch(() => undefined)
  }
}
