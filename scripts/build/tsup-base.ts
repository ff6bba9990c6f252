/**
 * The build every library package shares: ESM (`.js`) and CommonJS (`.cjs`) bundles with their
 * declarations (`.d.ts`, `.d.cts`) for Node 20. tsup's shims give the CommonJS bundle an
 * `import.meta.url` computed from `__filename`, so no output has a bare `import.meta` in CommonJS.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Options } from 'tsup'

type Plugin = NonNullable<Options['esbuildPlugins']>[number]

/** A package's tsup options; `extra` adds to or overrides the shared ones. */
export function packageBuild(entry: Options['entry'], extra: Options = {}): Options {
  return {
    entry,
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    shims: true,
    loader: { '.md': 'text' },
    ...extra,
  }
}

/**
 * Replaces the source module whose path ends with `placeholder` (which exports nothing precompiled,
 * for running from sources) with a file the build generated first, so generated code is bundled in
 * rather than read from disk at run time.
 */
export function embedGenerated(placeholder: string, generated: string): Plugin {
  const file = resolve(generated)
  return {
    name: 'embed-generated',
    setup(build) {
      const filter = new RegExp(`${placeholder.replaceAll('.', '\\.').replaceAll('/', '[\\\\/]')}$`)
      build.onLoad({ filter }, () => {
        let contents: string
        try {
          contents = readFileSync(file, 'utf8')
        } catch {
          throw new Error(`${file} is missing: the package's build generates it before tsup runs`)
        }
        return { contents, loader: 'js' }
      })
    },
  }
}
