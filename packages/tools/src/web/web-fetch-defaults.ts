/** WebFetch's limits, shared by the tool and {@link fetchWebText} (kept apart so neither loads the other). */
export const WEB_FETCH_DEFAULTS = {
  timeoutMs: 30_000,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 10,
  maxContentChars: 100_000,
  userAgent: 'z-engine-webfetch/0.1 (coding agent; +https://github.com/z-engine)',
} as const
