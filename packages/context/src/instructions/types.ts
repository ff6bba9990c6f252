/** Where an instruction file comes from (spec 003 "Instruction files"), lowest precedence first. */
export type InstructionScope = 'user' | 'project' | 'local' | 'nested'

/** One loaded instruction file, contents already read and cut by the engine. */
export interface InstructionFile {
  scope: InstructionScope
  /** The path shown to the model: relative to the project when inside it, `~/…` for user files. */
  path: string
  content: string
  /** True when the file was cut at 64 KiB. */
  truncated: boolean
  /** The path of the file whose `@path` import loaded this one. */
  importedFrom?: string
}

/** A glob-scoped rule (`.z-engine/rules/**\/*.md`), its frontmatter already parsed. */
export interface Rule {
  /** The path shown to the model. */
  path: string
  /** Gitignore-style patterns relative to the agent's root; a pattern without `/` matches at any depth. */
  globs: readonly string[]
  /** True: the rule sits in the system prompt like an instruction file. */
  alwaysApply: boolean
  description?: string
  body: string
}
