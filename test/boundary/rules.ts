/**
 * DESIGN.md's package table as data: which internal packages each package may import, and which
 * packages must stay free of I/O.
 */
export const ALLOWED_INTERNAL: Readonly<Record<string, readonly string[]>> = {
  protocol: [],
  policy: ['protocol'],
  context: ['protocol'],
  prompts: [],
  store: ['protocol'],
  host: ['protocol'],
  tools: ['protocol', 'policy', 'prompts', 'host'],
  engine: ['protocol', 'policy', 'context', 'prompts', 'store', 'host', 'tools'],
  cli: ['engine', 'protocol', 'gateway'],
  gateway: ['engine', 'protocol'],
}

/**
 * Internal packages a package may declare (never import) because code bundled into its build
 * needs them at run time: the CLI inlines the engine, whose grammar loader reads the `.wasm.br` files
 * `@z-engine/context` ships. Each entry says why.
 */
export const RUNTIME_OF_BUNDLED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  cli: {
    context:
      'the inlined engine reads the grammar and tree-sitter runtime .wasm.br files @z-engine/context ships',
  },
}

/** Packages that must do no I/O. */
export const PURE_PACKAGES: readonly string[] = ['policy', 'context']

/** Node modules a pure package may not import (with or without the `node:` prefix, any subpath). */
export const IO_MODULES: readonly string[] = [
  'fs',
  'fs/promises',
  'child_process',
  'net',
  'http',
  'https',
  'http2',
  'dgram',
  'worker_threads',
  'os',
  'tls',
  'dns',
  'cluster',
  'readline',
]

/** A layer of a package's `src/`: its top-level folders (`.` is the files directly in `src/`). */
export interface FolderLayer {
  name: string
  folders: readonly string[]
}

/**
 * The engine's layers, lowest first: a folder imports folders of its own layer or a lower one,
 * never a higher one, and no folders import each other in a circle. A service shared by two folders
 * lives below both, never in its first user's folder.
 */
export const ENGINE_LAYERS: readonly FolderLayer[] = [
  { name: 'base', folders: ['util', 'broker'] },
  {
    name: 'services',
    folders: [
      'model',
      'workspace',
      'mcp',
      'lsp',
      'jobs',
      'repo-map',
      'verification',
      'decisions',
      'compaction',
      'batch',
    ],
  },
  { name: 'core', folders: ['run', 'gate', 'session', 'orchestration'] },
  { name: 'assembly', folders: ['assembly'] },
  { name: 'api', folders: ['api', 'claude-agent-sdk', '.'] },
]
