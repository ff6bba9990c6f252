#!/usr/bin/env node
// Benchmarks of the built CLI (run `pnpm build` first): time from process start to the first model
// request of `z-engine exec` against the scripted HTTP server (median of 10), `--version` time
// (median of 10), and the peak RSS of a 50-round scripted session. Prints plain figures.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const here = import.meta.dirname
const bin = resolve(here, '../dist/bin.js')
const testing = resolve(here, '../../../packages/engine/dist/testing.js')
if (!existsSync(bin) || !existsSync(testing)) {
  console.error('Build first: pnpm build (needs apps/cli/dist and packages/engine/dist).')
  process.exit(1)
}
const { startScriptedServer } = await import(testing)

const root = mkdtempSync(join(tmpdir(), 'z-bench-'))
const project = join(root, 'project')
mkdirSync(project)
execFileSync('git', ['init', '-q'], { cwd: project })
writeFileSync(join(project, 'README.md'), '# bench\n')
const env = {
  PATH: process.env.PATH,
  HOME: root,
  XDG_DATA_HOME: join(root, 'data'),
  XDG_CONFIG_HOME: join(root, 'config'),
}
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

// 1. Process start → first model request (the server notes when each request arrives).
let arrived = 0
const server = await startScriptedServer((_request, _index) => {
  arrived = performance.now()
  return { blocks: [{ type: 'text', text: 'ok' }] }
})
const firstRequest = []
for (let run = 0; run < 10; run++) {
  arrived = 0
  const started = performance.now()
  const child = spawn(
    process.execPath,
    [bin, 'exec', '--model', 'anthropic/claude-sonnet-4-5', '--output-format', 'json', 'hi'],
    {
      cwd: project,
      env: { ...env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'bench' },
      stdio: 'ignore',
    },
  )
  const code = await new Promise((done) => child.on('close', done))
  if (code !== 0 || arrived === 0) throw new Error(`exec run ${run} failed (exit ${code})`)
  firstRequest.push(arrived - started)
}
await server.close()

// 2. --version.
const version = []
for (let run = 0; run < 10; run++) {
  const started = performance.now()
  spawnSync(process.execPath, [bin, '--version'], { env, stdio: 'ignore' })
  version.push(performance.now() - started)
}

// 3. Peak RSS of a 50-round session (49 read-only tool rounds, then an answer).
const steps = []
for (let round = 1; round < 50; round++)
  steps.push({
    blocks: [
      { type: 'text', text: `round ${round}` },
      { type: 'tool_use', name: 'Read', input: { file_path: 'README.md' } },
    ],
  })
steps.push({ blocks: [{ type: 'text', text: 'done' }] })
const script = join(root, 'fifty.jsonl')
writeFileSync(script, `${steps.map((step) => JSON.stringify(step)).join('\n')}\n`)
const timed = spawnSync(
  '/usr/bin/time',
  [
    '-f',
    '%M',
    process.execPath,
    bin,
    'exec',
    '--model',
    `scripted:${script}`,
    '--output-format',
    'json',
    'go',
  ],
  { cwd: project, env, encoding: 'utf8' },
)
const result = JSON.parse(timed.stdout)
if (result.outcome !== 'done' || result.tool_calls !== 49)
  throw new Error(`50-round session failed: ${timed.stdout}`)
const maxRssKb = Number(timed.stderr.trim().split('\n').at(-1))

console.log(
  `exec: process start → first model request (scripted HTTP server, median of 10): ${median(firstRequest).toFixed(0)} ms (min ${Math.min(...firstRequest).toFixed(0)}, max ${Math.max(...firstRequest).toFixed(0)})`,
)
console.log(`--version (median of 10): ${median(version).toFixed(0)} ms`)
console.log(
  `exec: peak RSS of a 50-round scripted session: ${(maxRssKb / 1024).toFixed(0)} MB (${result.duration_ms} ms wall)`,
)
