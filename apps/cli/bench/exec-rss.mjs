#!/usr/bin/env node
// Peak RSS of the fix-the-bug `exec` task (issue 17: ≤ 0.5× Claude Code's), comparing builds run
// by run so that each sees the same load: BENCH_CLI=<bin.js>[,<bin.js>…] (default: this package's
// dist/bin.js). Peak RSS comes from /usr/bin/time (%M, the largest process's high-water mark: a
// transient peak inside a synchronous call or on a V8 background thread counts, which a sampler on
// the event loop misses). With BENCH_RSS_DETAIL=1 a preload also records the peaks of
// process.memoryUsage() sampled every 20 ms (JS heap, external) for where the memory goes.
// BENCH_CASES: tiny (3-file repository, warm data dir; the default), real (a copy of this
// repository, warm data dir: the map from the outline cache), cold (that copy, a fresh data dir
// each run: the map parsed by the worker). BENCH_RUNS runs per build (default 5), after one
// uncounted run per build. Prints medians per build.
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  BUG,
  benchCases,
  benchRuns,
  cliBins,
  cliEnv,
  execArgs,
  fixTheBugAnswer,
  loadAverage,
  median,
  realisticRepo,
  scratchDir,
  startScriptedServer,
  timedRun,
  tinyRepo,
} from './harness.mjs'

const bins = cliBins()
const runs = benchRuns(5)
const cases = benchCases('tiny')
const detail = process.env.BENCH_RSS_DETAIL === '1'
const root = scratchDir('rss')
const sampler = join(root, 'sample-memory.mjs')
writeFileSync(
  sampler,
  `import { appendFileSync } from 'node:fs'
const peak = { rss: 0, heapTotal: 0, heapUsed: 0, external: 0 }
const sample = () => { const now = process.memoryUsage(); for (const key in peak) peak[key] = Math.max(peak[key], now[key]) }
setInterval(sample, 20).unref()
process.on('exit', () => { sample(); appendFileSync(process.env.BENCH_RSS_OUT, JSON.stringify(peak) + '\\n') })
`,
)

let firstRequestAt = 0
const server = await startScriptedServer((request) => {
  const messages = request.body.messages ?? []
  if (!messages.some((message) => message.role === 'assistant')) firstRequestAt = performance.now()
  return fixTheBugAnswer(messages, 'add.js')
})

/** One task with `bin` in `project` and data dir `dataHome`; its figures. */
async function runTask(bin, project, dataHome) {
  writeFileSync(join(project, 'add.js'), BUG)
  const out = join(root, 'memory.jsonl')
  rmSync(out, { force: true })
  const env = cliEnv(root, dataHome, server.url)
  if (detail) Object.assign(env, { NODE_OPTIONS: `--import=${sampler}`, BENCH_RSS_OUT: out })
  const run = await timedRun(process.execPath, execArgs(bin), { cwd: project, env })
  const result = JSON.parse(run.stdout || '{}')
  if (
    run.code !== 0 ||
    result.outcome !== 'done' ||
    !readFileSync(join(project, 'add.js'), 'utf8').includes('a + b')
  )
    throw new Error(`task failed (exit ${run.code}): ${run.stdout}\n${run.stderr}`)
  const sampled = detail ? JSON.parse(readFileSync(out, 'utf8').split('\n')[0]) : {}
  const mb = (bytes) => (bytes === undefined ? undefined : bytes / 1048576)
  return {
    rss: run.rss,
    cpu: run.cpu,
    wall: run.wall,
    firstRequest: firstRequestAt - run.started,
    heapTotal: mb(sampled.heapTotal),
    heapUsed: mb(sampled.heapUsed),
    external: mb(sampled.external),
  }
}

/** Alternates the builds over `runs` tasks in `project`; a fresh data dir per run when `cold`. */
async function compare(label, project, cold) {
  const samples = bins.map(() => [])
  for (let run = -1; run < runs; run++)
    for (const [index, bin] of bins.entries()) {
      const data = join(root, cold ? `data-${label}-${index}-${run}` : `data-${label}-${index}`)
      const figures = await runTask(bin, project, data)
      if (run >= 0) samples[index].push(figures)
      if (cold) rmSync(data, { recursive: true, force: true })
    }
  console.log(`exec fix-the-bug, ${label} (median of ${runs}, builds alternated; load ${loadAverage()}):`)
  for (const [index, bin] of bins.entries()) {
    const of = (key) => median(samples[index].map((sample) => sample[key]))
    const heap = detail
      ? `, sampled JS heap ${of('heapTotal').toFixed(1)} MB total / ${of('heapUsed').toFixed(1)} MB used, external ${of('external').toFixed(1)} MB`
      : ''
    console.log(
      `  ${bin}: peak RSS ${of('rss').toFixed(1)} MB (${samples[index].map((sample) => sample.rss.toFixed(0)).join(', ')}),` +
        ` CPU ${of('cpu').toFixed(0)} ms, wall ${of('wall').toFixed(0)} ms, spawn → first request ${of('firstRequest').toFixed(0)} ms${heap}`,
    )
  }
}

try {
  if (cases.has('tiny')) await compare('3-file repository', tinyRepo(root), false)
  if (cases.has('real') || cases.has('cold')) {
    const real = realisticRepo(root)
    if (cases.has('real')) await compare(`${real.files}-file repository, seen before`, real.dir, false)
    if (cases.has('cold')) await compare(`${real.files}-file repository, first session`, real.dir, true)
  }
} finally {
  await server.close()
  rmSync(root, { recursive: true, force: true })
}
