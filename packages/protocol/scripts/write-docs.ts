/** Rewrites the generated blocks of docs/protocol.md from the schemas (`pnpm --filter @z-engine/protocol docs`). */
import { readFileSync, writeFileSync } from 'node:fs'
import { fillGenerated } from './render-docs.js'

const path = new URL('../../../docs/protocol.md', import.meta.url)
writeFileSync(path, fillGenerated(readFileSync(path, 'utf8')))
console.log(`updated ${path.pathname}`)
