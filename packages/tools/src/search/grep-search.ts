import { grepBuiltin } from './grep-builtin.js'
import { findRipgrep, grepWithRipgrep } from './grep-ripgrep.js'
import type { GrepOutcome, GrepQuery } from './grep-types.js'

/** Which implementation searches: ripgrep when on PATH (`auto`), or one of them explicitly. */
export type GrepEngine = 'auto' | 'ripgrep' | 'builtin'

/**
 * Searches with ripgrep when available, else with the built-in engine (same selection, same
 * results). A pattern ripgrep's regex engine refuses (look-around, backreferences) is retried
 * with the built-in engine, whose JavaScript regexes accept it.
 */
export async function searchFiles(
  query: GrepQuery,
  engine: GrepEngine = 'auto',
): Promise<GrepOutcome & { engine: 'ripgrep' | 'builtin' }> {
  const rg = engine === 'builtin' ? undefined : findRipgrep()
  if (rg) {
    const outcome = await grepWithRipgrep(rg, query)
    if (
      outcome.ok ||
      engine === 'ripgrep' ||
      !/regex parse error|look-around|backreferences/.test(outcome.message)
    ) {
      return { ...outcome, engine: 'ripgrep' }
    }
  }
  return { ...(await grepBuiltin(query)), engine: 'builtin' }
}
