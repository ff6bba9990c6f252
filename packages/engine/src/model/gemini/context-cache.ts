/**
 * Gemini's explicit context caching for one client (one session): creates caches with
 * `caches.create` as cache-plan.ts decides, names them on requests, deletes superseded ones and,
 * when the session closes, all of them. Caching never fails a request: a refused creation sends the
 * request uncached, and a request naming a cache the server no longer has is sent again uncached.
 */
import type {
  CachedContent,
  CreateCachedContentParameters,
  DeleteCachedContentParameters,
  GenerateContentParameters,
  Tool,
} from '@google/genai'
import { type CacheEntry, contentsOf, planCache, prefixKey, withCache } from './cache-plan.js'

/** The part of the SDK's `caches` module this uses. */
export interface CachesApi {
  create(params: CreateCachedContentParameters): Promise<CachedContent>
  delete(params: DeleteCachedContentParameters): Promise<unknown>
}

/** Options of {@link GeminiContextCache}. */
export interface ContextCacheOptions {
  /** Time to live of each cache, in seconds. */
  ttlSeconds: number
  /** The clock (tests). */
  now?: () => number
  /** Caches kept at once (one per prefix: the main agent, subagents); the oldest goes first. */
  maxEntries?: number
}

/** A prepared request: the parameters to send and the cache they name, if any. */
export interface PreparedRequest {
  parameters: GenerateContentParameters
  entry?: CacheEntry
}

/** After this many creations in a row fail, the client stops trying (caching is off for the model). */
const MAX_FAILURES = 3
/** Deleting caches at close waits at most this long (the session must close without the network). */
const DELETE_TIMEOUT_MS = 5_000

/** The caches of one client. */
export class GeminiContextCache {
  readonly #entries = new Map<string, CacheEntry>()
  readonly #refused = new Set<string>()
  /** Creation tokens not yet reported in a usage event, by cache name. */
  readonly #unreported = new Map<string, number>()
  #failures = 0
  #queue: Promise<unknown> = Promise.resolve()
  readonly #now: () => number
  readonly #maxEntries: number

  constructor(private readonly options: ContextCacheOptions) {
    this.#now = options.now ?? Date.now
    this.#maxEntries = options.maxEntries ?? 4
  }

  /**
   * The request to send for `parameters`: with a cache when one covers its prefix (creating it
   * first when the plan says so), else unchanged. Calls are serialized, so two requests of the same
   * prefix never create two caches. Rejects only when `signal` aborts.
   */
  prepare(
    caches: CachesApi,
    parameters: GenerateContentParameters,
    signal: AbortSignal,
  ): Promise<PreparedRequest> {
    const run = this.#queue.then(() => this.#prepare(caches, parameters, signal))
    this.#queue = run.catch(() => {})
    return run
  }

  async #prepare(
    caches: CachesApi,
    parameters: GenerateContentParameters,
    signal: AbortSignal,
  ): Promise<PreparedRequest> {
    if (this.#failures >= MAX_FAILURES) return { parameters }
    const key = prefixKey(parameters)
    const plan = planCache(parameters, key, this.#entries.get(key), this.#now(), this.#refused)
    switch (plan.type) {
      case 'none':
        return { parameters }
      case 'use':
        this.#touch(plan.entry)
        return { parameters: withCache(parameters, plan.entry), entry: plan.entry }
      case 'create': {
        const config = parameters.config ?? {}
        let created: CachedContent
        try {
          created = await caches.create({
            model: parameters.model,
            config: {
              // The SDK refuses an empty list; a cache of the system instruction and tools has none.
              ...(plan.contentsCount > 0
                ? { contents: contentsOf(parameters).slice(0, plan.contentsCount) }
                : {}),
              ...(config.systemInstruction !== undefined
                ? { systemInstruction: config.systemInstruction }
                : {}),
              // request.ts builds plain function-declaration tools, never callable ones.
              ...(config.tools !== undefined ? { tools: config.tools as Tool[] } : {}),
              ...(config.toolConfig !== undefined ? { toolConfig: config.toolConfig } : {}),
              ttl: `${this.options.ttlSeconds}s`,
              displayName: 'z-engine',
              abortSignal: signal,
            },
          })
        } catch (error) {
          if (signal.aborted) throw error
          this.#failures++
          this.#refused.add(`${key}:${plan.contentsHash}`)
          return plan.replaces !== undefined && this.#usable(plan.replaces)
            ? { parameters: withCache(parameters, plan.replaces), entry: plan.replaces }
            : { parameters }
        }
        this.#failures = 0
        if (created.name === undefined) return { parameters }
        const tokens = created.usageMetadata?.totalTokenCount ?? plan.estimatedTokens
        const expires = created.expireTime !== undefined ? Date.parse(created.expireTime) : Number.NaN
        const entry: CacheEntry = {
          key,
          name: created.name,
          contentsCount: plan.contentsCount,
          contentsHash: plan.contentsHash,
          tokens,
          expiresAt: Number.isNaN(expires) ? this.#now() + this.options.ttlSeconds * 1000 : expires,
        }
        if (plan.replaces !== undefined) this.#drop(caches, plan.replaces)
        this.#entries.set(key, entry)
        this.#unreported.set(entry.name, tokens)
        this.#evict(caches)
        return { parameters: withCache(parameters, entry), entry }
      }
      default: {
        const unreachable: never = plan
        return unreachable
      }
    }
  }

  /**
   * The creation tokens of `entry` not yet reported, once: the first request that reports usage
   * over a new cache reports them as cache writes.
   */
  takeUnreported(entry: CacheEntry): number {
    const tokens = this.#unreported.get(entry.name) ?? 0
    this.#unreported.delete(entry.name)
    return tokens
  }

  /** Forgets a cache the server no longer answers for (expired early, deleted elsewhere). */
  forget(entry: CacheEntry): void {
    if (this.#entries.get(entry.key)?.name === entry.name) this.#entries.delete(entry.key)
    this.#unreported.delete(entry.name)
  }

  /** Deletes every cache this client created (the session closes); errors are ignored. */
  async close(caches: CachesApi): Promise<void> {
    await this.#queue
    const entries = [...this.#entries.values()]
    this.#entries.clear()
    await Promise.all(entries.map((entry) => this.#delete(caches, entry)))
  }

  #usable(entry: CacheEntry): boolean {
    return this.#entries.get(entry.key)?.name === entry.name && this.#now() < entry.expiresAt
  }

  #touch(entry: CacheEntry): void {
    // Map order is the eviction order: the most recently used prefix goes last.
    this.#entries.delete(entry.key)
    this.#entries.set(entry.key, entry)
  }

  #evict(caches: CachesApi): void {
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.values().next().value as CacheEntry
      this.#drop(caches, oldest)
    }
  }

  #drop(caches: CachesApi, entry: CacheEntry): void {
    this.forget(entry)
    void this.#delete(caches, entry)
  }

  async #delete(caches: CachesApi, entry: CacheEntry): Promise<void> {
    await caches
      .delete({ name: entry.name, config: { abortSignal: AbortSignal.timeout(DELETE_TIMEOUT_MS) } })
      .catch(() => {})
  }
}
