#!/usr/bin/env node
// The README's test command: build every package (turbo, cached) while the typecheck runs, lint,
// run the whole vitest suite, and print the plain totals line CI reads: `N passed, N failed`.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { reportTotals, testEnv } from './test-env.mjs'

const env = testEnv()

/** Runs a command to its end with its output kept (to print whole, not interleaved); resolves with its status. */
function collect(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    const chunks = []
    child.stdout.on('data', (data) => chunks.push(data))
    child.stderr.on('data', (data) => chunks.push(data))
    child.on('error', (error) => resolve({ status: 1, output: `${error.message}\n` }))
    child.on('close', (status) => resolve({ status, output: Buffer.concat(chunks).toString() }))
  })
}

// The build is a chain (protocol → policy → tools → engine → gateway → CLI) that keeps about one
// core busy; the typecheck reads sources only (the `@z-engine/source` condition), so it runs on the
// other core meanwhile, as one program over every package (tsconfig.check.json).
const [build, typecheck] = await Promise.all([
  collect('pnpm', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']),
  collect('pnpm', ['exec', 'tsc', '-p', 'tsconfig.check.json']),
])
process.stdout.write(build.output)
if (build.status !== 0) {
  console.log('0 passed, 1 failed')
  process.exit(1)
}
// Lint and typecheck count as one test each, so the totals line shows them too.
let extraPassed = 0
let extraFailed = 0
const lint = spawnSync('pnpm', ['exec', 'biome', 'check', '.'], { stdio: 'inherit', env })
for (const [label, status, output] of [
  ['lint (biome)', lint.status, ''],
  ['typecheck (tsc)', typecheck.status, typecheck.output],
]) {
  process.stdout.write(output)
  if (status === 0) extraPassed += 1
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
