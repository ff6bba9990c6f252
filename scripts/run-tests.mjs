#!/usr/bin/env node
// The README's test command: build every package (turbo, cached), run the whole vitest suite, and
// print the plain totals line CI reads: `N passed, N failed`.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { reportTotals, testEnv } from './test-env.mjs'

const env = testEnv()
const build = spawnSync('pnpm', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only'], {
  stdio: 'inherit',
  env,
})
if (build.status !== 0) {
  console.log('0 passed, 1 failed')
  process.exit(1)
}
// Lint and typecheck count as one test each, so the totals line shows them too.
let extraPassed = 0
let extraFailed = 0
for (const [label, command, args] of [
  ['lint (biome)', 'pnpm', ['exec', 'biome', 'check', '.']],
  ['typecheck (tsc)', 'pnpm', ['exec', 'turbo', 'run', 'typecheck', '--output-logs=errors-only']],
]) {
  const step = spawnSync(command, args, { stdio: 'inherit', env })
  if (step.status === 0) extraPassed += 1
  else {
    extraFailed += 1
    console.error(`FAILED: ${label}`)
  }
}
const outDir = mkdtempSync(join(tmpdir(), 'z-engine-tests-'))
const report = join(outDir, 'report.json')
const run = spawnSync(
  'pnpm',
  [
    'exec',
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit', env },
)
let { passed, failed } = reportTotals(report)
rmSync(outDir, { recursive: true, force: true })
if (run.status !== 0 && failed === 0) failed = 1

// `engines` promises newer Nodes too: a few end-to-end files run on Node 24 as well (the official
// build from the npm registry; `pnpm test:node 24` runs the whole CLI and gateway storage set).
const NODE_24_TESTS = [
  'apps/gateway/test/storage-sqlite.test.ts',
  'apps/cli/test/exec.test.ts',
  'apps/cli/test/compile-cache.test.ts',
]
const node24 = spawnSync('node', ['scripts/test-node.mjs', '24', ...NODE_24_TESTS], { env, encoding: 'utf8' })
process.stdout.write(node24.stdout ?? '')
process.stderr.write(node24.stderr ?? '')
const node24Totals = /^(\d+) passed, (\d+) failed$/m.exec(node24.stdout ?? '')
if (node24Totals && node24.status === 0) extraPassed += Number(node24Totals[1])
else {
  extraPassed += Number(node24Totals?.[1] ?? 0)
  extraFailed += Math.max(1, Number(node24Totals?.[2] ?? 0))
  console.error('FAILED: tests on Node 24')
}
passed += extraPassed
failed += extraFailed
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed === 0 && run.status === 0 ? 0 : 1)
