import { closestMatch } from './closest.js'

/**
 * Exit codes of the CLI (spec: 0 done, 1 failed, 2 usage error, 3 budget exhausted, 130
 * interrupted), plus 4: a headless turn tried changes and every one was denied, and 5: the answer is
 * incomplete (empty, or cut off at the output-token limit, even after one nudge).
 */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  budget: 3,
  denied: 4,
  incomplete: 5,
  interrupted: 130,
} as const

/** A mistake in how the CLI was called: printed to stderr, exit code 2. */
export class UsageError extends Error {
  readonly code = 'usage'
}

/**
 * A usage error for an unknown word: names the closest valid one when there is a plausible typo,
 * otherwise lists the valid ones (up to a dozen) so the user always sees what to type instead.
 */
export function unknownWordError(kind: string, word: string, candidates: readonly string[]): UsageError {
  const suggestion = closestMatch(word, candidates)
  if (suggestion) return new UsageError(`Unknown ${kind} '${word}'. Did you mean '${suggestion}'?`)
  const shown = candidates.slice(0, 12).join(', ')
  const more = candidates.length > 12 ? ', …' : ''
  return new UsageError(
    `Unknown ${kind} '${word}'. Valid ${kind}s: ${shown}${more}. Run 'z-engine --help' for details.`,
  )
}
