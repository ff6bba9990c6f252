/** A fetched page as WebFetch keeps it between calls. */
export interface CachedPage {
  finalUrl: string
  title?: string
  /** The page as markdown or text, before any size cap for the model. */
  text: string
  /** The download was cut at the byte limit. */
  truncatedBytes: boolean
}

/**
 * Recently fetched pages by URL, so asking several questions of one page downloads it once.
 * Entries expire after `ttlMs` (15 minutes by default); the oldest go first past `maxEntries`.
 */
export class PageCache {
  readonly #entries = new Map<string, { page: CachedPage; at: number }>()

  constructor(
    private readonly ttlMs = 15 * 60_000,
    private readonly maxEntries = 50,
    private readonly now: () => number = Date.now,
  ) {}

  /** The page fetched for `url` within the last `ttlMs`, if any. */
  get(url: string): CachedPage | undefined {
    const entry = this.#entries.get(url)
    if (entry === undefined) return undefined
    if (this.now() - entry.at >= this.ttlMs) {
      this.#entries.delete(url)
      return undefined
    }
    return entry.page
  }

  /** Keeps `page` for `url`, evicting the oldest entry when full. */
  set(url: string, page: CachedPage): void {
    this.#entries.delete(url)
    this.#entries.set(url, { page, at: this.now() })
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value
      if (oldest === undefined) break
      this.#entries.delete(oldest)
    }
  }
}
