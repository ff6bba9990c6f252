#!/usr/bin/env node
// CPU spent by `z-engine exec` from process start to its first model request (issue 17), read from
// /proc when the scripted Anthropic wire server receives that request: the process's own user+sys
// time (all its threads) plus that of the children it has waited for (git, the sandbox probe).
// CPU, not wall time: on a shared machine the wall clock mostly measures the wait for a core.
// The session runs in a 3-file git repository with a warm data dir (earlier sessions there), then
// finishes (one text answer). Several builds can be compared in one run, alternating so that each
// sees the same load: BENCH_CLI=<bin.js>[,<bin.js>…] (default: this package's dist/bin.js).
// BENCH_RUNS sets the runs per build (default 10); prints the median and quartiles per build.
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import {
  benchRuns,
  cliBins,
  cliEnv,
  cpuOf,
  quantile,
  scratchDir,
  startScriptedServer,
  tinyRepo,
} from './harness.mjs'

const bins = cliBins()
const runs = benchRuns(10)
const root = scratchDir('cpu')
const project = tinyRepo(root)

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
      env: cliEnv(root, dataHome, server.url),
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
