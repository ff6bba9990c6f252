import { defineConfig } from 'tsup'
import { packageBuild } from '../../scripts/build/tsup-base.js'

// web-tree-sitter is bundled (its runtime wasm ships in grammars/, compressed): the package as
// published also carries a debug build and source maps, 4.6 MB of an install that uses 0.4 MB.
export default defineConfig(packageBuild(['src/index.ts'], { noExternal: ['web-tree-sitter'] }))
