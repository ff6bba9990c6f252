import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import {
  createOutliner,
  GRAMMAR_FILES,
  type Outliner,
  REPO_MAP_LANGUAGES,
  type RepoMapLanguage,
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

/** The outliner with every grammar this install has, or why there is none. */
export type OutlinerLoad = { ok: true; outliner: Outliner; errors: string[] } | { ok: false; error: string }

let shared: Promise<OutlinerLoad> | undefined

/**
 * Resolves and reads the grammar wasm files (shipped in `@z-engine/context`) and the tree-sitter
 * runtime, and builds one outliner shared by every repo-map build in the process.
 * A missing grammar costs only its language; a missing runtime turns the map off.
 */
export function loadOutliner(): Promise<OutlinerLoad> {
  shared ??= (async (): Promise<OutlinerLoad> => {
    const grammars: Partial<Record<RepoMapLanguage, Uint8Array>> = {}
    const errors: string[] = []
    await Promise.all(
      REPO_MAP_LANGUAGES.map(async (language) => {
        const { packageName, file } = GRAMMAR_FILES[language]
        try {
          grammars[language] = await readFile(resolveFile(`${packageName}/${file}`))
        } catch (error) {
          errors.push(
            `${language}: could not read ${packageName}/${file} (${String(error)}); a bundled engine needs ${packageName} installed beside it.`,
          )
        }
      }),
    )
    let runtimeWasm: Uint8Array | undefined
    try {
      runtimeWasm = await readFile(resolveFile('web-tree-sitter/web-tree-sitter.wasm'))
    } catch {
      // web-tree-sitter can still locate its own wasm file.
    }
    const loaded = await createOutliner(runtimeWasm ? { grammars, runtimeWasm } : { grammars })
    if (!loaded.ok) return loaded
    return { ok: true, outliner: loaded.outliner, errors: [...errors, ...loaded.errors] }
  })()
  return shared
}
