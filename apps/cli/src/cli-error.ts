import { closestMatch } from './closest.js'

/** Exit codes of the CLI (spec: 0 done, 1 failed, 2 usage error, 3 budget exhausted, 130 interrupted). */
export const EXIT = { ok: 0, failed: 1, usage: 2, budget: 3, interrupted: 130 } as const

/** A mistake in how the CLI was called: printed to stderr, exit code 2. */
export class UsageError extends Error {
  readonly code = 'usage'
}

/** A usage error for an unknown word, naming the closest valid one when there is one. */
export function unknownWordError(kind: string, word: string, candidates: readonly string[]): UsageError {
  const suggestion = closestMatch(word, candidates)
  const hint = suggestion ? ` Did you mean '${suggestion}'?` : ''
  return new UsageError(`Unknown ${kind} '${word}'.${hint} Run 'z-engine --help' for the list.`)
}
