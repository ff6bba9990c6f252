#!/usr/bin/env node
// The interactive chat's startup (issue 17): `z-engine` in a pseudo-terminal (110×40) in a 3-file git
// repository, from spawn until the prompt box is first drawn ("Ask anything": the early box, which
// reads keys from then on) and until the real composer is mounted (its banner carries the session
// id), as wall time and as the CPU the process had used by then (user+sys of all its threads, from
// /proc). A build without the early box has one figure for both. No request is made (an
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

/** The real composer's frame: the banner with the session's id, then the prompt box. */
const MOUNTED = /session [0-9a-f]{8}-[0-9a-f-]{27}[\s\S]*Ask anything/

/** One chat start with `bin`: wall ms and CPU ms until the first frame and until the composer is mounted. */
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
      let first
      let finished = false
      pty.onData((data) => {
        output += data
        if (finished) return
        if (first === undefined && output.includes('Ask anything'))
          first = { wall: performance.now() - started, cpu: cpuOf(pty.pid).own }
        if (first !== undefined && MOUNTED.test(output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''))) {
          clearTimeout(timer)
          finished = true
          done({ first, mounted: { wall: performance.now() - started, cpu: cpuOf(pty.pid).own } })
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
  const range = (values) =>
    `${quantile(values, 0.5).toFixed(0)} ms (${quantile(values, 0.25).toFixed(0)}–${quantile(values, 0.75).toFixed(0)})`
  for (const [index, bin] of bins.entries()) {
    for (const stage of ['first', 'mounted']) {
      const wall = samples[index].map((sample) => sample[stage].wall)
      const cpu = samples[index].map((sample) => sample[stage].cpu)
      const what = stage === 'first' ? 'prompt box drawn, keys read' : 'real composer mounted'
      console.log(
        `chat spawn → ${what} (median of ${runs}, quartiles): wall ${range(wall)}, CPU ${range(cpu)}` +
          `${bins.length > 1 ? `: ${bin}` : ''}`,
      )
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true, maxRetries: 10 })
}
