/**
 * The build every library package shares: ESM (`.js`) and CommonJS (`.cjs`) bundles with their
 * declarations (`.d.ts`, `.d.cts`) for Node 20. tsup's shims give the CommonJS bundle an
 * `import.meta.url` computed from `__filename`, so no output has a bare `import.meta` in CommonJS.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
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

/**
 * Bundles `yaml` from its ES module build (`browser/`, plain ESM that reads `process` only when it
 * exists). Its `node` entry is CommonJS that calls `require('process')`, which an embedder's ESM
 * bundle (esbuild, `--platform=node`) turns into "Dynamic require of "process" is not supported"
 * (issue 36). Inlined, the package bundles with no banner or shim on the embedder's side.
 */
export function yamlAsEsm(): Plugin {
  return {
    name: 'yaml-as-esm',
    setup(build) {
      build.onResolve({ filter: /^yaml$/ }, (args) => {
        const manifest = createRequire(join(args.resolveDir, 'noop.js')).resolve('yaml/package.json')
        return { path: join(dirname(manifest), 'browser', 'index.js') }
      })
    },
  }
}
