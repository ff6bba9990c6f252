import { MAX_COMPACT_AT_PERCENT, MICRO_CLEAR_AT_PERCENT, MIN_COMPACT_AT_PERCENT } from './limits.js'

/** What context relief a round needs before its request is built. */
export type PressureLevel =
  /** Under half the window: nothing to do. */
  | 'none'
  /** Above half the window: clear old tool results. */
  | 'clear'
  /** Above `context.compact_at_percent`: clear, then summarize older history. */
  | 'compact'

/** Decides the relief a round needs from the meter's tokens (spec 003 "Compaction"). */
export function pressureLevel(tokens: number, windowTokens: number, compactAtPercent: number): PressureLevel {
  if (windowTokens <= 0) return 'none'
  if (tokens * 100 > windowTokens * compactAtPercent) return 'compact'
  if (tokens * 100 > windowTokens * MICRO_CLEAR_AT_PERCENT) return 'clear'
  return 'none'
}

/** A checked `context.compact_at_percent`, or an error saying what values are allowed. */
export type CompactAtPercentResult = { ok: true; value: number } | { ok: false; error: string }

/** Checks `context.compact_at_percent`: a whole number from 50 to 99. */
export function checkCompactAtPercent(value: unknown): CompactAtPercentResult {
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < MIN_COMPACT_AT_PERCENT ||
    value > MAX_COMPACT_AT_PERCENT
  ) {
    return {
      ok: false,
      error: `context.compact_at_percent must be a whole number from ${MIN_COMPACT_AT_PERCENT} to ${MAX_COMPACT_AT_PERCENT} (got ${JSON.stringify(value)}); remove it to use the default 92.`,
    }
  }
  return { ok: true, value }
}
