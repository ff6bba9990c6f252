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
 * Where each grammar's wasm lives: a package and the file in it. The grammars ship brotli-compressed
 * (`.wasm.br`, a thirteenth of their size) in this package's `grammars/` (see
 * scripts/update-grammars.mjs for where they come from). Data only; the engine resolves, reads and
 * decompresses the files and passes the wasm bytes in.
 */
export const GRAMMAR_FILES: Readonly<Record<RepoMapLanguage, { packageName: string; file: string }>> = {
  typescript: { packageName: '@z-engine/context', file: 'grammars/tree-sitter-typescript.wasm.br' },
  tsx: { packageName: '@z-engine/context', file: 'grammars/tree-sitter-tsx.wasm.br' },
  javascript: { packageName: '@z-engine/context', file: 'grammars/tree-sitter-javascript.wasm.br' },
  python: { packageName: '@z-engine/context', file: 'grammars/tree-sitter-python.wasm.br' },
  go: { packageName: '@z-engine/context', file: 'grammars/tree-sitter-go.wasm.br' },
  rust: { packageName: '@z-engine/context', file: 'grammars/tree-sitter-rust.wasm.br' },
}

/**
 * The tree-sitter runtime's own wasm (`web-tree-sitter.wasm`, brotli-compressed like the grammars):
 * its JavaScript is bundled into this package, so the wasm ships beside the grammars and is passed
 * to {@link createOutliner} as `runtimeWasm`.
 */
export const TREE_SITTER_RUNTIME_FILE: Readonly<{ packageName: string; file: string }> = {
  packageName: '@z-engine/context',
  file: 'grammars/web-tree-sitter.wasm.br',
}
