#!/usr/bin/env node
// Runs every package's `bench` script (packages that have one) and prints their figures.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
let failures = 0
for (const parent of ['packages', 'apps']) {
  for (const name of readdirSync(join(root, parent))) {
    const dir = join(root, parent, name)
    const manifestPath = join(dir, 'package.json')
    if (!existsSync(manifestPath)) continue
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
    if (!manifest.scripts?.bench) continue
    console.log(`\n== ${manifest.name} ==`)
    const run = spawnSync('pnpm', ['run', '--silent', 'bench'], { cwd: dir, stdio: 'inherit' })
    if (run.status !== 0) failures += 1
  }
}
console.log('\n== install of the 8 libraries (scripts/bench-install.mjs) ==')
if (
  spawnSync(process.execPath, [join(root, 'scripts', 'bench-install.mjs')], { stdio: 'inherit' }).status !== 0
)
  failures += 1
process.exit(failures === 0 ? 0 : 1)
