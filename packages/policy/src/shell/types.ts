/** One shell word after quote removal. */
export interface ShellWord {
  /** The word's value with quotes removed and escapes applied (best effort when not literal). */
  value: string
  /** No expansion of any kind: no `$`, no substitution, no unquoted glob or brace. */
  literal: boolean
  /** Contains an unquoted glob character (`*`, `?`, `[`), so it names files the lexer cannot list. */
  glob: boolean
  /** Starts with an unquoted `~` (resolved against the home folder). */
  tilde: boolean
}

/** A redirection operator. */
export type RedirectOp = '<' | '>' | '>>' | '>|' | '<>' | '&>' | '&>>' | '>&' | '<&' | '<<' | '<<-' | '<<<'

/** One redirection of a simple command. */
export interface ShellRedirect {
  op: RedirectOp
  /** The explicit file descriptor (`2>`), when given. */
  fd?: number
  /** The target word; for heredocs the delimiter. */
  target: ShellWord
  /** A heredoc's body (what the command reads on standard input). */
  body?: string
  /** The heredoc's delimiter is unquoted, so bash expands its body. */
  expands?: boolean
}

/** A simple command: assignments, words (name first) and redirections. */
export interface ShellCommand {
  assignments: ShellWord[]
  words: ShellWord[]
  redirects: ShellRedirect[]
}

/** A lexed line: every simple command it runs, in order, and whether the lexer understood all of it. */
export interface ParsedLine {
  commands: ShellCommand[]
  /** False when anything was unterminated, unsupported or beyond limits: never proven read-only. */
  complete: boolean
  /** Why the line is incomplete, for reasons shown to the user. */
  problems: string[]
}
