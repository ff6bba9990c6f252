import type { TableVerdict } from './read-only-checks.js'
import type { ShellWord } from './types.js'

/** One command the read-only proof knows, with examples a test checks (like codex's execpolicy). */
export interface ReadOnlyEntry {
  names: readonly string[]
  /** What makes a call of it read-only, for docs/permissions.md. */
  summary: string
  /** The options it may take, as written in its spec (for docs/permissions.md); absent for custom checks. */
  allowed?: string
  /** Lines the proof must accept. */
  match: readonly string[]
  /** Lines the proof must refuse. */
  notMatch: readonly string[]
  /** Safe whatever extra arguments xargs or find -exec add. */
  anyArgsSafe?: boolean
  check: (args: readonly ShellWord[]) => TableVerdict
}
