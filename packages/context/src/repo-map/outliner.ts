import type { Language, Node } from 'web-tree-sitter'
import type { RepoMapLanguage } from './languages.js'
import { languageForPath, REPO_MAP_LANGUAGES } from './languages.js'
import { outlineGo } from './outline-go.js'
import { outlinePython } from './outline-python.js'
import { outlineRust } from './outline-rust.js'
import { outlineTypeScript } from './outline-typescript.js'
import type { Definition, FileOutline } from './types.js'

/** Outlines source files with tree-sitter; made by {@link createOutliner}. */
export interface Outliner {
  /** The languages whose grammar loaded. */
  readonly languages: readonly RepoMapLanguage[]
  /** Outlines one file's text; never throws (a file that fails to parse is an error value). */
  outline(path: string, source: string): OutlineResult
  /** Frees the parser (wasm memory). */
  dispose(): void
}

/** One file's outline, or why it could not be outlined. */
export type OutlineResult = { ok: true; outline: FileOutline } | { ok: false; error: string }

/** Grammar bytes per language, and optionally the tree-sitter runtime's own wasm. */
export interface OutlinerInput {
  grammars: Partial<Record<RepoMapLanguage, Uint8Array>>
  /**
   * `web-tree-sitter.wasm` (decompressed from {@link TREE_SITTER_RUNTIME_FILE}); when absent,
   * web-tree-sitter looks for it beside the module that holds it, which fails in this package's build.
   */
  runtimeWasm?: Uint8Array
}

let runtime: Promise<typeof import('web-tree-sitter')> | undefined

/**
 * Loads the tree-sitter runtime (once per process, imported only now so a process that never
 * outlines a file never loads it) and the given grammars. Grammars that fail to load are reported in
 * `errors` and their files are skipped; the outliner still works for the rest.
 */
export async function createOutliner(
  input: OutlinerInput,
): Promise<{ ok: true; outliner: Outliner; errors: string[] } | { ok: false; error: string }> {
  let treeSitter: typeof import('web-tree-sitter')
  try {
    runtime ??= import('web-tree-sitter').then(async (module) => {
      await module.Parser.init(input.runtimeWasm ? { wasmBinary: input.runtimeWasm } : undefined)
      return module
    })
    treeSitter = await runtime
  } catch (error) {
    runtime = undefined
    return { ok: false, error: `could not start tree-sitter: ${String(error)}; the repository map is off.` }
  }
  const languages = new Map<RepoMapLanguage, Language>()
  const errors: string[] = []
  for (const id of REPO_MAP_LANGUAGES) {
    const bytes = input.grammars[id]
    if (!bytes) continue
    try {
      languages.set(id, await treeSitter.Language.load(bytes))
    } catch (error) {
      errors.push(`could not load the ${id} grammar: ${String(error)}`)
    }
  }
  const parser = new treeSitter.Parser()
  const outliner: Outliner = {
    languages: [...languages.keys()],
    outline(path, source) {
      const id = languageForPath(path)
      const language = id ? languages.get(id) : undefined
      if (!id || !language) return { ok: false, error: `${path}: no grammar for this file type` }
      try {
        parser.setLanguage(language)
        const tree = parser.parse(source)
        if (!tree) return { ok: false, error: `${path}: the parser gave no tree` }
        try {
          const definitions = outlineRoot(id, tree.rootNode, source)
          const identifiers = isJavaScriptLike(id) ? importedReferences(source) : countIdentifiers(source)
          return { ok: true, outline: { path, language: id, definitions, identifiers } }
        } finally {
          tree.delete()
        }
      } catch (error) {
        return { ok: false, error: `${path}: ${String(error)}` }
      }
    },
    dispose() {
      parser.delete()
    },
  }
  return { ok: true, outliner, errors }
}

function outlineRoot(language: RepoMapLanguage, root: Node, source: string): Definition[] {
  switch (language) {
    case 'typescript':
    case 'tsx':
    case 'javascript':
      return outlineTypeScript(root, source)
    case 'python':
      return outlinePython(root, source)
    case 'go':
      return outlineGo(root, source)
    case 'rust':
      return outlineRust(root, source)
    default: {
      const unhandled: never = language
      throw new Error(`no outliner for ${String(unhandled)}`)
    }
  }
}

function isJavaScriptLike(language: RepoMapLanguage): boolean {
  return language === 'typescript' || language === 'tsx' || language === 'javascript'
}

const IDENTIFIER = /[A-Za-z_$][\w$]*/g

// The names between `import`/`export` and `from`, and in `const { … } = require(…)`.
const IMPORT_CLAUSE =
  /\b(?:import|export)\s+(?:type\s+)?([\w$\s{},*]*?)\s*from\s*['"]|\b(?:const|let|var)\s+\{([^}]*)\}\s*=\s*require\s*\(/g

/**
 * References a JavaScript or TypeScript file makes to other files' names. A name from another
 * module can only be used after importing it, so only imported names count, each as often as it
 * occurs bare (`x.name` is a member access, not a reference). This keeps a file exporting a common
 * word (`text`) from collecting every local variable of that name in the project.
 */
export function importedReferences(source: string): Map<string, number> {
  const imported = new Set<string>()
  for (const match of source.matchAll(IMPORT_CLAUSE)) {
    for (const word of (match[1] ?? match[2] ?? '').matchAll(IDENTIFIER)) {
      if (word[0] !== 'as' && word[0] !== 'type') imported.add(word[0])
    }
  }
  const counts = countIdentifiers(source, true)
  for (const word of counts.keys()) if (!imported.has(word)) counts.delete(word)
  return counts
}

/**
 * Counts identifier-like words. A lexical scan rather than a tree query: it is several times faster,
 * and the few words it picks up from comments and strings barely move a file's rank.
 */
export function countIdentifiers(source: string, skipMemberAccess = false): Map<string, number> {
  const counts = new Map<string, number>()
  for (const match of source.matchAll(IDENTIFIER)) {
    if (skipMemberAccess && match.index > 0 && source.charCodeAt(match.index - 1) === 46 /* . */) continue
    const word = match[0]
    counts.set(word, (counts.get(word) ?? 0) + 1)
  }
  return counts
}
