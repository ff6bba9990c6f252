/** What Grep asks either engine (ripgrep or built-in) to find. */
export interface GrepQuery {
  pattern: string
  /** Absolute folder or file. */
  root: string
  /** ripgrep-style globs (`!` excludes). */
  globs: string[]
  /** ripgrep type names (`ts`, `py`). */
  types: string[]
  caseInsensitive: boolean
  /** Patterns may span lines and `.` matches newlines. */
  multiline: boolean
  mode: 'content' | 'files_with_matches' | 'count'
  /** Context lines (content mode). */
  before: number
  after: number
  signal?: AbortSignal
}

/** One printed line of a file. */
export interface GrepLine {
  /** 1-based. */
  number: number
  /** The line without its `\n` (a `\r` of CRLF files stays). */
  text: string
  /** A matching line (else a context line). */
  match: boolean
}

/** The result for one file. */
export interface GrepFileResult {
  /** Absolute path. */
  path: string
  /** Matching lines; in multiline mode, matches (ripgrep's `--count`). */
  count: number
  /** Content mode: match and context lines in order. */
  lines: GrepLine[]
}

/** Either engine's outcome; files sorted by path. */
export type GrepOutcome = { ok: true; files: GrepFileResult[] } | { ok: false; message: string }
