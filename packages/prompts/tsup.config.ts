import { defineConfig } from 'tsup'
import { packageBuild } from '../../scripts/build/tsup-base.js'

export default defineConfig(packageBuild(['src/index.ts']))
