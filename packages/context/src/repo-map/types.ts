import type { RepoMapLanguage } from './languages.js'

/** What kind of definition an outline line shows. */
export type DefinitionKind =
  | 'function'
  | 'class'
  | 'method'
  | 'interface'
  | 'type'
  | 'enum'
  | 'constant'
  | 'module'
  | 'trait'
  | 'impl'
  | 'macro'

/** One definition in a file's outline: its signature without a body. */
export interface Definition {
  kind: DefinitionKind
  /** The defined name (for `impl` blocks, the implemented type). */
  name: string
  /** The declaration up to its body, whitespace collapsed, at most 160 characters. */
  signature: string
  /** Nesting: 0 for top level, 1 for a method in a class, … */
  depth: number
  /** Zero-based line of the definition. */
  line: number
  /**
   * Whether other files can refer to it (exported, `pub`, capitalized in Go, no leading `_` in
   * Python). Only exported top-level names earn a file ranking points.
   */
  exported: boolean
}

/** A file's outline and the names it mentions, the unit the ranker and renderer work on. */
export interface FileOutline {
  /** Path relative to the project, `/`-separated. */
  path: string
  language: RepoMapLanguage
  definitions: Definition[]
  /** How often each identifier occurs in the file (references to other files' names). */
  identifiers: Map<string, number>
}
