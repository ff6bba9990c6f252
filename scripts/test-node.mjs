#!/usr/bin/env node
// `pnpm test:node [major] [vitest args…]`: runs tests on another Node version, fetched as the official
// build from the npm registry into `.cache/node/<version>` (nothing is installed globally). Without
// test arguments it runs what `engines` promises beyond the Node that CI uses: the CLI's end-to-end
// tests (against the built `dist/`, so `pnpm build` first) and the gateway's storage tests. The
// test processes and every `node` they spawn run on that version (it leads PATH).
// The last line is the plain totals line `N passed, N failed`.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fetchOfficialNode } from './official-node.mjs'
import { reportTotals, testEnv } from './test-env.mjs'

/** The versions tested besides the machine's own; keep README's "Node versions" in step. */
const VERSIONS = { 24: '24.22.3', 22: '22.23.5' }
const DEFAULT_TESTS = [
  'apps/cli/test',
  'apps/gateway/test/storage-sqlite.test.ts',
  'apps/gateway/test/postgres.test.ts',
  'apps/gateway/test/server.test.ts',
]

const [major = '24', ...rest] = process.argv.slice(2)
const version = VERSIONS[major]
if (version === undefined) {
  console.error(`test:node: no pinned version for Node ${major}; known: ${Object.keys(VERSIONS).join(', ')}`)
  process.exit(2)
}
let home
try {
  home = fetchOfficialNode('node', version, ['bin'])
} catch (error) {
  console.error(`test:node: could not get Node ${version}: ${error instanceof Error ? error.message : error}`)
  console.log('0 passed, 1 failed')
  process.exit(1)
}
const bin = join(home, 'bin')
const env = testEnv({ PATH: `${bin}:${process.env.PATH ?? ''}` })
const outDir = mkdtempSync(join(tmpdir(), 'z-engine-node-tests-'))
const report = join(outDir, 'report.json')
const tests = rest.length > 0 ? rest : DEFAULT_TESTS
console.log(`Node ${version} (${join(bin, 'node')}): ${tests.join(' ')}`)
const run = spawnSync(
  join(bin, 'node'),
  [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...tests,
  ],
  { stdio: 'inherit', env },
)
let { passed, failed } = reportTotals(report)
rmSync(outDir, { recursive: true, force: true })
if (run.status !== 0 && failed === 0) failed = 1
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed === 0 && run.status === 0 ? 0 : 1)
