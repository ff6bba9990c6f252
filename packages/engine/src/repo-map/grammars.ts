import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { promisify } from 'node:util'
import { brotliDecompress } from 'node:zlib'
import {
  createOutliner,
  GRAMMAR_FILES,
  languageForPath,
  type Outliner,
  REPO_MAP_LANGUAGES,
  type RepoMapLanguage,
  TREE_SITTER_RUNTIME_FILE,
} from '@z-engine/context'

/**
 * Resolves a package file from this module: with `import.meta.url` in ES modules (and in our
 * CommonJS build, where tsup derives it from `__filename`), else with CommonJS's `require` (an ES
 * build bundled into CommonJS, where bundlers leave `import.meta` empty). Never at import time.
 */
function resolveFile(id: string): string {
  const here: unknown = import.meta.url
  return typeof here === 'string' ? createRequire(here).resolve(id) : require.resolve(id)
}

const decompress = promisify(brotliDecompress)

/** A grammar's (or the runtime's) wasm bytes: the shipped `.wasm.br` files are brotli-compressed (install size). */
async function readGrammar(path: string): Promise<Uint8Array> {
  const bytes = await readFile(path)
  return path.endsWith('.br') ? await decompress(bytes) : bytes
}

/** An outliner for the languages asked for, or why there is none. */
export type OutlinerLoad = { ok: true; outliner: Outliner; errors: string[] } | { ok: false; error: string }

type LanguageLoad =
  | { ok: true; outliner: Outliner | undefined; error?: string }
  | { ok: false; error: string }

/** One outliner per language, each loaded on first need and shared by every build in the process. */
const perLanguage = new Map<RepoMapLanguage, Promise<LanguageLoad>>()
let runtimeWasm: Promise<Uint8Array | undefined> | undefined

/**
 * Resolves and reads the grammar wasm files (shipped in `@z-engine/context`) of `languages` (default:
 * all) and the tree-sitter runtime, each once per process: a build that outlines JavaScript never
 * compiles the Rust or TypeScript grammars (megabytes of wasm, issue 17). A missing grammar costs only
 * its language (an error, reported by the first load that asked for it); a missing runtime turns the
 * map off. The outliner handles every language loaded so far.
 */
export async function loadOutliner(
  languages: readonly RepoMapLanguage[] = REPO_MAP_LANGUAGES,
): Promise<OutlinerLoad> {
  const firstAsks = languages.filter((language) => !perLanguage.has(language))
  for (const language of firstAsks) perLanguage.set(language, loadLanguage(language))
  const loads = await Promise.all(languages.map((language) => perLanguage.get(language)!))
  const failed = loads.find((load) => !load.ok)
  if (failed && !failed.ok) return failed
  const errors: string[] = []
  for (const [index, language] of languages.entries()) {
    const load = loads[index]!
    if (load.ok && load.error !== undefined && firstAsks.includes(language)) errors.push(load.error)
  }
  return { ok: true, outliner: await composite(), errors }
}

/** An outliner over every language loaded so far, dispatching on the file's extension. */
async function composite(): Promise<Outliner> {
  const byLanguage = new Map<RepoMapLanguage, Outliner>()
  for (const [language, load] of perLanguage) {
    const loaded = await load
    if (loaded.ok && loaded.outliner) byLanguage.set(language, loaded.outliner)
  }
  return {
    languages: [...byLanguage.keys()],
    outline(path, source) {
      const language = languageForPath(path)
      const outliner = language ? byLanguage.get(language) : undefined
      return outliner
        ? outliner.outline(path, source)
        : { ok: false, error: `${path}: no grammar for this file type` }
    },
    dispose() {
      // Shared by the process: parsers live as long as it does.
    },
  }
}

async function loadLanguage(language: RepoMapLanguage): Promise<LanguageLoad> {
  const { packageName, file } = GRAMMAR_FILES[language]
  let grammar: Uint8Array
  try {
    grammar = await readGrammar(resolveFile(`${packageName}/${file}`))
  } catch (error) {
    return {
      ok: true,
      outliner: undefined,
      error: `${language}: could not read or decompress ${packageName}/${file} (${String(error)}); a bundled engine needs ${packageName} installed beside it.`,
    }
  }
  const runtimeFile = `${TREE_SITTER_RUNTIME_FILE.packageName}/${TREE_SITTER_RUNTIME_FILE.file}`
  runtimeWasm ??= readGrammar(resolveFile(runtimeFile)).catch(
    // From the sources, web-tree-sitter (a dev dependency there) still locates its own wasm file.
    () => undefined,
  )
  const runtime = await runtimeWasm
  const loaded = await createOutliner(
    runtime
      ? { grammars: { [language]: grammar }, runtimeWasm: runtime }
      : { grammars: { [language]: grammar } },
  )
  if (!loaded.ok) {
    // The runtime did not start: let a later build try again.
    perLanguage.delete(language)
    return loaded
  }
  const error = loaded.errors[0]
  return error !== undefined
    ? { ok: true, outliner: undefined, error }
    : { ok: true, outliner: loaded.outliner }
}

/** The languages a set of files needs grammars for. */
export function languagesOf(files: readonly { path: string }[]): RepoMapLanguage[] {
  const languages = new Set<RepoMapLanguage>()
  for (const file of files) {
    const language = languageForPath(file.path)
    if (language) languages.add(language)
  }
  return [...languages]
}
