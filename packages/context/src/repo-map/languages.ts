/** The languages the repository map outlines. */
export const REPO_MAP_LANGUAGES = ['typescript', 'tsx', 'javascript', 'python', 'go', 'rust'] as const

/** A language the repository map outlines. */
export type RepoMapLanguage = (typeof REPO_MAP_LANGUAGES)[number]

const EXTENSIONS: Readonly<Record<string, RepoMapLanguage>> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  // The JavaScript grammar parses JSX.
  jsx: 'javascript',
  py: 'python',
  pyi: 'python',
  go: 'go',
  rs: 'rust',
}

/** The language of a path by its extension, or null when the map does not outline it. */
export function languageForPath(path: string): RepoMapLanguage | null {
  const name = path.slice(path.lastIndexOf('/') + 1)
  const dot = name.lastIndexOf('.')
  if (dot <= 0) return null
  return EXTENSIONS[name.slice(dot + 1).toLowerCase()] ?? null
}

/**
 * Where each grammar's wasm lives: a package and the file in it. The `.wasm` files ship in this
 * package's `grammars/` (see scripts/update-grammars.mjs for where they come from). Data only; the
 * engine resolves and reads the files and passes their bytes in.
 */
export const GRAMMAR_FILES: Readonly<Record<RepoMapLanguage, { packageName: string; file: string }>> = {
  typescript: { packageName: '@z-engine/context', file: 'grammars/tree-sitter-typescript.wasm' },
  tsx: { packageName: '@z-engine/context', file: 'grammars/tree-sitter-tsx.wasm' },
  javascript: { packageName: '@z-engine/context', file: 'grammars/tree-sitter-javascript.wasm' },
  python: { packageName: '@z-engine/context', file: 'grammars/tree-sitter-python.wasm' },
  go: { packageName: '@z-engine/context', file: 'grammars/tree-sitter-go.wasm' },
  rust: { packageName: '@z-engine/context', file: 'grammars/tree-sitter-rust.wasm' },
}
