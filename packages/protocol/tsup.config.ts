import { defineConfig } from 'tsup'
import { embedGenerated, packageBuild } from '../../scripts/build/tsup-base.js'

export default defineConfig(
  packageBuild(['src/index.ts'], {
    esbuildPlugins: [embedGenerated('src/validate/precompiled.ts', 'generated/validators.js')],
  }),
)
