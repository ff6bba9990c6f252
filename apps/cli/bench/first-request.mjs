#!/usr/bin/env node
// Issue 17's first-request figure, builds alternated run by run: `z-engine exec` spawn → the
// scripted server receiving its first model request (wall clock), and the process's CPU (with its
// waited-for children) at that moment, in a 3-file git repository and in a copy of this
// repository's tracked tree. Each build gets its own data dir, warmed by earlier sessions (each
// running a 5-second shell command so the repository map's outlines are all parsed) until one starts
// with the map in its first request; each run then answers one text reply. Prints median and
// quartiles per build and case, how many first requests held the map, and the load average.
// BENCH_CLI=<bin.js>[,<bin.js>…] (builds kept inside apps/cli, e.g. under node_modules/, so they
// resolve web-tree-sitter; give each copy a package.json of `{"type":"module"}`, as dist/ has through
// apps/cli's, or Node parses every chunk twice to detect its module format), BENCH_RUNS (default
// 7), BENCH_CASES=tiny,real. Run `pnpm build` first.
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import {
  benchCases,
  benchRuns,
  cliBins,
  cliEnv,
  cpuOf,
  execArgs,
  loadAverage,
  quantile,
  realisticRepo,
  scratchDir,
  startScriptedServer,
  tinyRepo,
} from './harness.mjs'

const bins = cliBins()
const runs = benchRuns(7)
const cases = benchCases('tiny,real')
const root = scratchDir('first')
let warming = false
let onRequest = () => {}
const server = await startScriptedServer((request) => {
  onRequest(request)
  const round = (request.body.messages ?? []).filter((message) => message.role === 'assistant').length
  if (warming && round === 0)
    return {
      blocks: [{ type: 'tool_use', name: 'Bash', input: { command: 'sleep 5', description: 'Wait' } }],
    }
  return { blocks: [{ type: 'text', text: 'ok' }] }
})

/** One session with `bin` in `project`: when its first request came, the CPU then, and whether it held the map. */
async function runOnce(bin, project, dataHome) {
  const started = performance.now()
  const child = spawn(process.execPath, execArgs(bin, 'say ok', warming ? 'bypass' : 'acceptEdits'), {
    cwd: project,
    env: cliEnv(root, dataHome, server.url),
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  let first
  onRequest = (request) => {
    first ??= {
      at: performance.now() - started,
      cpu: cpuOf(child.pid),
      map: JSON.stringify(request.body.system ?? '').includes('<repository-map>'),
    }
  }
  let stdout = ''
  child.stdout.on('data', (chunk) => {
    stdout += chunk
  })
  const code = await new Promise((done) => child.on('close', done))
  if (code !== 0 || first === undefined) throw new Error(`exec failed (exit ${code}): ${stdout}`)
  return { at: first.at, cpu: first.cpu.own + first.cpu.children, map: first.map }
}

const projects = []
if (cases.has('tiny')) projects.push(['3-file repository', tinyRepo(root)])
if (cases.has('real')) {
  const real = realisticRepo(root)
  projects.push([`${real.files}-file repository`, real.dir])
}
try {
  for (const [caseIndex, [name, project]] of projects.entries()) {
    const dataHomes = bins.map((_, index) => join(root, `data-${caseIndex}-${index}`))
    warming = true
    for (const [index, bin] of bins.entries())
      for (let session = 0; session < 6; session++)
        if ((await runOnce(bin, project, dataHomes[index])).map) break
    warming = false
    const loadBefore = loadAverage()
    const samples = bins.map(() => [])
    for (let run = 0; run < runs; run++)
      for (const [index, bin] of bins.entries())
        samples[index].push(await runOnce(bin, project, dataHomes[index]))
    for (const [index, bin] of bins.entries()) {
      const at = samples[index].map((sample) => sample.at)
      const cpu = samples[index].map((sample) => sample.cpu)
      console.log(
        `${name}: spawn → first request ${quantile(at, 0.5).toFixed(0)} ms (${quantile(at, 0.25).toFixed(0)}–${quantile(at, 0.75).toFixed(0)}),` +
          ` CPU then ${quantile(cpu, 0.5).toFixed(0)} ms, map in ${samples[index].filter((sample) => sample.map).length}/${runs}` +
          ` (median of ${runs}; load ${loadBefore} → ${loadAverage()})${bins.length > 1 ? `: ${bin}` : ''}`,
      )
    }
  }
} finally {
  await server.close()
  rmSync(root, { recursive: true, force: true })
}
