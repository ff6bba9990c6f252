/**
 * Result categories of the semantic output budget (spec 004 "Tools and Capabilities": files, search
 * matches, tests, process logs, diffs and worker conclusions; anything else takes the head/tail
 * fallback, `text`).
 */
export const OUTPUT_CATEGORIES = ['file', 'search', 'test', 'log', 'diff', 'conclusion', 'text'] as const

/** One result category. */
export type OutputCategory = (typeof OUTPUT_CATEGORIES)[number]

/**
 * Estimated-token budget per category. Each sits below the tools' byte ceiling (30,000 characters,
 * about 7,500 tokens), which stays the authoritative limit; the budget decides what to keep first.
 */
export const DEFAULT_OUTPUT_BUDGETS: Readonly<Record<OutputCategory, number>> = {
  file: 6_000,
  search: 4_000,
  test: 4_000,
  log: 4_000,
  diff: 6_000,
  conclusion: 4_000,
  text: 6_000,
}
