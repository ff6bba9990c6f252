#!/usr/bin/env node
// The interactive chat's startup (issue 17): `z-engine` in a pseudo-terminal (110×40) in a 3-file git
// repository, from spawn until the composer is drawn ("Ask anything"), as wall time and as the CPU
// the process had used by then (user+sys of all its threads, from /proc). No request is made (an
// Anthropic model with a placeholder key). BENCH_CLI=<bin.js>[,<bin.js>…] compares builds,
// alternating; BENCH_RUNS runs per build (default 10). Run `pnpm build` first.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { spawn } from '@lydell/node-pty'
import { benchRuns, cliBins, cliEnv, cpuOf, quantile, scratchDir, tinyRepo } from './harness.mjs'

const bins = cliBins()
const runs = benchRuns(10)
const TIMEOUT_MS = 60_000
const root = scratchDir('chat')
const project = tinyRepo(root)

/** One chat start with `bin`: wall ms and CPU ms until the composer shows. */
async function runOnce(bin, dataHome) {
  const started = performance.now()
  const pty = spawn(process.execPath, [bin, '--model', 'anthropic/claude-sonnet-4-5'], {
    name: 'xterm-256color',
    cols: 110,
    rows: 40,
    cwd: project,
    env: { ...cliEnv(root, dataHome, 'http://127.0.0.1:9'), TERM: 'xterm-256color' },
  })
  let output = ''
  try {
    return await new Promise((done, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`no composer in ${TIMEOUT_MS} ms:\n${output.slice(-2000)}`)),
        TIMEOUT_MS,
      )
      pty.onExit(({ exitCode }) =>
        fail(new Error(`exited (${exitCode}) before the composer:\n${output.slice(-2000)}`)),
      )
      pty.onData((data) => {
        output += data
        if (output.includes('Ask anything')) {
          clearTimeout(timer)
          done({ wall: performance.now() - started, cpu: cpuOf(pty.pid).own })
        }
      })
    })
  } finally {
    pty.kill()
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

try {
  const samples = bins.map(() => [])
  const dataHomes = bins.map((_, index) => join(root, `data-${index}`))
  for (const [index, bin] of bins.entries()) await runOnce(bin, dataHomes[index]) // warm caches
  for (let run = 0; run < runs; run++)
    for (const [index, bin] of bins.entries()) samples[index].push(await runOnce(bin, dataHomes[index]))
  for (const [index, bin] of bins.entries()) {
    const wall = samples[index].map((sample) => sample.wall)
    const cpu = samples[index].map((sample) => sample.cpu)
    console.log(
      `chat spawn → composer ready (median of ${runs}, quartiles): wall ${quantile(wall, 0.5).toFixed(0)} ms` +
        ` (${quantile(wall, 0.25).toFixed(0)}–${quantile(wall, 0.75).toFixed(0)}), CPU ${quantile(cpu, 0.5).toFixed(0)} ms` +
        ` (${quantile(cpu, 0.25).toFixed(0)}–${quantile(cpu, 0.75).toFixed(0)})${bins.length > 1 ? `: ${bin}` : ''}`,
    )
  }
} finally {
  rmSync(root, { recursive: true, force: true })
}
