import type { ShellWord } from './types.js'

/**
 * What a table entry says about one call: the files it reads and writes, and why it is not proven
 * read-only (`refusal`). A call is proven read-only when it has no refusal and writes nothing.
 */
export interface TableVerdict {
  refusal?: string
  reads: ShellWord[]
  writes: ShellWord[]
  /** Reads descend into the folders named. */
  recursive: boolean
  /** It reads files the line does not name (a list file, another repository). */
  unknownReads?: boolean
}

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
