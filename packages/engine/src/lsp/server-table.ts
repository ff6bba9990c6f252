import { extname } from 'node:path'

/** A language server the engine may start: how, and for which files. */
export interface LspServerSpec {
  /** The name in notices and `[lsp.servers.<name>]`. */
  name: string
  command: string
  args: readonly string[]
  /** File extensions it covers, without the dot. */
  extensions: readonly string[]
  /** Sent as `initializationOptions`. */
  initializationOptions?: Record<string, unknown>
  /** What to install when the command is missing. */
  install: string
}

/**
 * The servers spec 000 names ("MCP and language servers"), tried in this order per extension: the
 * first whose command is installed serves it. `[lsp.servers]` entries come first and a same-named
 * entry replaces a built-in.
 */
export const BUILTIN_SERVERS: readonly LspServerSpec[] = [
  {
    name: 'typescript',
    command: 'typescript-language-server',
    args: ['--stdio'],
    extensions: ['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs'],
    install: 'npm install -g typescript-language-server typescript',
  },
  {
    name: 'pyright',
    command: 'pyright-langserver',
    args: ['--stdio'],
    extensions: ['py', 'pyi'],
    install: 'npm install -g pyright (or pip install basedpyright)',
  },
  {
    name: 'basedpyright',
    command: 'basedpyright-langserver',
    args: ['--stdio'],
    extensions: ['py', 'pyi'],
    install: 'pip install basedpyright',
  },
  {
    name: 'gopls',
    command: 'gopls',
    args: [],
    extensions: ['go'],
    install: 'go install golang.org/x/tools/gopls@latest',
  },
  {
    name: 'rust-analyzer',
    command: 'rust-analyzer',
    args: [],
    extensions: ['rs'],
    install: 'rustup component add rust-analyzer',
  },
  {
    name: 'clangd',
    command: 'clangd',
    args: [],
    extensions: ['c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh', 'hxx', 'm', 'mm'],
    install: 'apt-get install clangd (or your platform’s clangd package)',
  },
]

/** The LSP `languageId` of a file. */
export function languageIdOf(path: string): string {
  const extension = extname(path).slice(1).toLowerCase()
  return LANGUAGE_IDS[extension] ?? extension
}

const LANGUAGE_IDS: Readonly<Record<string, string>> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'typescriptreact',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascriptreact',
  py: 'python',
  pyi: 'python',
  go: 'go',
  rs: 'rust',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  hxx: 'cpp',
  m: 'objective-c',
  mm: 'objective-cpp',
}
