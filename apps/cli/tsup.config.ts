import { join } from 'node:path'
import { build, defineConfig, type Options } from 'tsup'

// The CLI ships as one bundle (issue 17): the engine's packages (from their TypeScript sources) and
// their pure-JS dependencies are inlined, so `z-engine exec` loads a handful of files instead of
// ~800 modules. Commands load lazily (see router.ts), so the chat's Ink/React, ACP and serve land in
// their own chunks. Left outside are what is found as a file at run time: the tree-sitter runtime
// and grammar wasm packages (read by the repo-map worker), ajv (required lazily for MCP and
// fallback tool schemas) and the optional gateway with its database drivers. Those are this
// package's own dependencies so they resolve from dist/ in any install layout.
const EXTERNAL = [
  'ajv',
  'web-tree-sitter',
  /^tree-sitter-/,
  '@z-engine/gateway',
  // Ink's React devtools bridge, imported only when DEV=true and not installed.
  'react-devtools-core',
]

/** The precompiled validators the packages' builds generate (required beside the module at run time). */
function validatorFiles(): Record<string, string> {
  const engineDist = join(import.meta.dirname, 'node_modules/@z-engine/engine/dist')
  const protocolDist = join(import.meta.dirname, 'node_modules/@z-engine/protocol/dist')
  const names = ['commands', 'events', 'log', 'permissionCheck', 'settings']
  return {
    'tool-validators': join(engineDist, 'tool-validators.cjs'),
    ...Object.fromEntries(
      names.map((name) => [`validators-${name}`, join(protocolDist, `validators-${name}.cjs`)]),
    ),
  }
}

const validators: Options = {
  entry: validatorFiles(),
  format: ['cjs'],
  splitting: false,
  outExtension: () => ({ js: '.cjs' }),
  // Inline ajv's small runtime helpers (ucs2length) so the validators need nothing installed.
  noExternal: [/.*/],
  target: 'node20',
  platform: 'node',
  clean: false,
  silent: true,
  // Not this file again (it would build the bundle once more, recursively).
  config: false,
}

export default defineConfig({
  entry: {
    bin: 'src/bin.ts',
    index: 'src/index.ts',
    // The repository map's parsing thread, found next to the bundle with `new Worker`.
    'outline-worker': '../../packages/engine/src/repo-map/outline-worker.ts',
  },
  format: ['esm'],
  platform: 'node',
  dts: false,
  sourcemap: true,
  clean: true,
  splitting: true,
  target: 'node20',
  loader: { '.md': 'text' },
  noExternal: [/^(?!ajv$|web-tree-sitter$|tree-sitter-|@z-engine\/gateway$|react-devtools-core$)/],
  external: EXTERNAL,
  esbuildOptions(options) {
    // Bundle the workspace packages from their sources (the exports' "@z-engine/source" condition).
    options.conditions = ['@z-engine/source', 'import', 'node', 'default']
    options.mainFields = ['module', 'main']
  },
  // Bundled CommonJS dependencies call require() for Node's built-ins; give ESM chunks one.
  banner: {
    js: "import { createRequire as __zCreateRequire } from 'node:module'; const require = __zCreateRequire(import.meta.url);",
  },
  async onSuccess() {
    await build(validators)
  },
})
