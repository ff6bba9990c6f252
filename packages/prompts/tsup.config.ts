import { defineConfig } from 'tsup'
import { packageBuild, yamlAsEsm } from '../../scripts/build/tsup-base.js'

// yaml is inlined from its ES module build, so embedders' ESM bundles need no require shim.
export default defineConfig(
  packageBuild(['src/index.ts'], { noExternal: ['yaml'], esbuildPlugins: [yamlAsEsm()] }),
)
