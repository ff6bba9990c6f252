#!/usr/bin/env node
// CPU spent by `z-engine exec` from process start to its first model request (issue 17), read from
// /proc when the scripted Anthropic wire server receives that request: the process's own user+sys
// time (all its threads) plus that of the children it has waited for (git, the sandbox probe).
// CPU, not wall time: on a shared machine the wall clock mostly measures the wait for a core.
// The session runs in a 3-file git repository with a warm data dir (earlier sessions there), then
// finishes (one text answer). Several builds can be compared in one run, alternating so that each
// sees the same load: BENCH_CLI=<bin.js>[,<bin.js>…] (default: this package's dist/bin.js).
// BENCH_RUNS sets the runs per build (default 10); prints the median and quartiles per build.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const here = import.meta.dirname
const bins = (process.env.BENCH_CLI ?? resolve(here, '../dist/bin.js')).split(',').map((bin) => resolve(bin))
const testing = resolve(here, '../../../packages/engine/dist/testing.js')
try {
  for (const bin of bins) readFileSync(bin)
  readFileSync(testing)
} catch {
  console.error('Build first: pnpm build (needs apps/cli/dist and packages/engine/dist).')
  process.exit(1)
}
const { startScriptedServer } = await import(testing)
const runs = Number(process.env.BENCH_RUNS ?? 10)
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim())

const root = mkdtempSync(join(tmpdir(), 'z-bench-cpu-'))
const project = join(root, 'tiny')
execFileSync('mkdir', ['-p', project])
writeFileSync(join(project, 'README.md'), '# tiny\n\n`add` should add.\n')
writeFileSync(join(project, 'add.js'), 'export function add(a, b) {\n  return a - b\n}\n')
writeFileSync(join(project, 'add.test.js'), "import { add } from './add.js'\n")
const git = (...args) => execFileSync('git', args, { cwd: project, stdio: 'ignore' })
git('init', '-q')
git('add', '-A')
git('-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-qm', 'init')

/** user+sys of a process and of its waited-for children, in ms (fields 14–17 of /proc/pid/stat). */
function cpuOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = (index) => Number(fields[index - 3])
  return { own: (ticks(14) + ticks(15)) * TICK_MS, children: (ticks(16) + ticks(17)) * TICK_MS }
}

let onRequest = () => {}
const server = await startScriptedServer(() => {
  onRequest()
  return { blocks: [{ type: 'text', text: 'ok' }] }
})

/** One session with `bin`; the CPU it had used when its first request arrived. */
async function runOnce(bin, dataHome) {
  const child = spawn(
    process.execPath,
    [bin, 'exec', '--model', 'anthropic/claude-sonnet-4-5', '--output-format', 'json', 'say ok'],
    {
      cwd: project,
      env: {
        PATH: process.env.PATH,
        HOME: join(root, 'home'),
        XDG_DATA_HOME: dataHome,
        XDG_CONFIG_HOME: join(root, 'config'),
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'bench',
      },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  )
  let atRequest
  onRequest = () => {
    atRequest ??= cpuOf(child.pid)
  }
  let stdout = ''
  child.stdout.on('data', (chunk) => {
    stdout += chunk
  })
  const code = await new Promise((done) => child.on('close', done))
  if (code !== 0 || atRequest === undefined || JSON.parse(stdout).outcome !== 'done')
    throw new Error(`exec failed (exit ${code}): ${stdout}`)
  return atRequest
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]
}

try {
  const samples = bins.map(() => [])
  const dataHomes = bins.map((_, index) => join(root, `data-${index}`))
  // A first session per build: the data dir and the repository map's cache, and the OS file cache.
  for (const [index, bin] of bins.entries()) await runOnce(bin, dataHomes[index])
  for (let run = 0; run < runs; run++)
    for (const [index, bin] of bins.entries()) samples[index].push(await runOnce(bin, dataHomes[index]))
  for (const [index, bin] of bins.entries()) {
    const own = samples[index].map((sample) => sample.own)
    const all = samples[index].map((sample) => sample.own + sample.children)
    console.log(
      `exec spawn → first request, CPU (median of ${runs}, quartiles): process ${quantile(own, 0.5).toFixed(0)} ms` +
        ` (${quantile(own, 0.25).toFixed(0)}–${quantile(own, 0.75).toFixed(0)}), with waited-for children` +
        ` ${quantile(all, 0.5).toFixed(0)} ms (${quantile(all, 0.25).toFixed(0)}–${quantile(all, 0.75).toFixed(0)})` +
        `${bins.length > 1 ? `: ${bin}` : ''}`,
    )
  }
} finally {
  await server.close()
  rmSync(root, { recursive: true, force: true })
}
