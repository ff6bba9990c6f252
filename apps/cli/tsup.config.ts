import { defineConfig, type Options } from 'tsup'

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number]

// The CLI ships as one bundle (issue 17): the engine's packages and their pure-JS dependencies
// are inlined, so `z-engine exec` loads a handful of files instead of
// ~800 modules. Commands load lazily (see router.ts), so the chat's Ink/React, ACP and serve land in
// their own chunks. The packages come in as built (their ES module bundles, precompiled validators
// embedded). Left outside are what is read as a file at run time: the grammar and tree-sitter
// runtime wasm in @z-engine/context (read by the repo-map worker), ajv (for MCP and fallback tool
// schemas, and the precompiled validators' runtime) and the optional gateway with its database drivers.
// Those are this package's own dependencies, so they resolve from dist/ in any install layout.
const EXTERNAL = [
  'ajv',
  '@z-engine/gateway',
  // Ink's React devtools bridge, imported only when DEV=true and not installed.
  'react-devtools-core',
]

/**
 * The engine loads the Anthropic SDK with `import('@anthropic-ai/sdk/client')` for its `BaseAnthropic`
 * (and the Messages resource apart). A dynamic import keeps every export of the module, so the bundle
 * would carry the `Anthropic` class and each API resource it builds (0.6 MB, compiled before the first
 * request; issue 17). Here that import gets a module exporting `BaseAnthropic` alone, resolved from the
 * importer's folder, so esbuild drops the rest.
 */
const anthropicBaseClientOnly: EsbuildPlugin = {
  name: 'anthropic-base-client-only',
  setup(build) {
    build.onResolve({ filter: /^@anthropic-ai\/sdk\/client$/ }, (args) => ({
      path: 'anthropic-base-client',
      namespace: 'anthropic-base-client',
      pluginData: args.resolveDir,
    }))
    build.onLoad({ filter: /.*/, namespace: 'anthropic-base-client' }, (args) => ({
      contents: "export { BaseAnthropic } from '@anthropic-ai/sdk/client.mjs'",
      resolveDir: args.pluginData as string,
      loader: 'js',
    }))
  },
}

export default defineConfig({
  entry: {
    bin: 'src/bin.ts',
    index: 'src/index.ts',
    // The repository map's parsing thread, found next to the bundle with `new Worker`.
    'outline-worker': 'node_modules/@z-engine/engine/dist/outline-worker.js',
  },
  format: ['esm'],
  platform: 'node',
  dts: false,
  sourcemap: true,
  clean: true,
  splitting: true,
  // Less source to read, decode and parse before the first request (issue 17): whitespace, comments
  // and syntax only. Names stay, so stack traces and `constructor.name` read as in the sources.
  minifyWhitespace: true,
  minifySyntax: true,
  target: 'node20',
  loader: { '.md': 'text' },
  noExternal: [/^(?!ajv$|ajv\/|@z-engine\/gateway$|react-devtools-core$)/],
  external: EXTERNAL,
  esbuildPlugins: [anthropicBaseClientOnly],
  // Bundled CommonJS dependencies call require() for Node's built-ins; give ESM chunks one.
  banner: {
    js: "import { createRequire as __zCreateRequire } from 'node:module'; const require = __zCreateRequire(import.meta.url);",
  },
})
