#!/usr/bin/env node
// The startup benchmark of issue 17 (run `pnpm build` first): `z-engine exec` against the scripted
// Anthropic wire server doing a small fix-the-bug task (Read, Edit, answer) in (a) a 3-file git
// repository and (b) a copy of this repository's own tracked tree (~700 files, a git repository).
// For each: process spawn → first model request, first answer → second request (the first tool's
// latency, checkpoint included), wall time, CPU (user+sys) and peak RSS of the whole task, median of
// RUNS (default 5; `BENCH_RUNS=3`). The realistic tree is measured twice: with a fresh data dir (the
// first session in that repository) and with the data dir of earlier sessions (a repository seen
// before: earlier sessions, each running a 4-second shell command, until one started with the
// repository map in its first request). Prints plain figures, and where the map was: in the first
// request's system prompt, later as a reminder, or not sent.
// BENCH_CLI=<path to a bin.js> measures another build (e.g. of an older commit);
// BENCH_CASES=tiny,real,warm,huge picks the cases (all by default).
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
  hugeFolder,
  median,
  realisticRepo,
  scratchDir,
  startScriptedServer,
  timedRun,
  tinyRepo,
  treeBytes,
} from './harness.mjs'

const [bin] = cliBins()
const runs = benchRuns(5)
const cases = benchCases('tiny,real,warm,huge')
const root = scratchDir('task')

let requestTimes = []
let requestBodies = []
let warmUp = false
const server = await startScriptedServer((request) => {
  requestTimes.push(performance.now())
  requestBodies.push(JSON.stringify(request.body))
  const messages = request.body.messages ?? []
  const round = messages.filter((message) => message.role === 'assistant').length
  if (warmUp)
    return round === 0
      ? { blocks: [{ type: 'tool_use', name: 'Bash', input: { command: 'sleep 4', description: 'Wait' } }] }
      : { blocks: [{ type: 'text', text: 'ok' }] }
  return fixTheBugAnswer(messages, 'add.js')
})

/** Runs the task once in `project` with `dataHome`; returns its figures. */
async function runTask(project, dataHome, mode = 'acceptEdits') {
  writeFileSync(join(project, 'add.js'), BUG)
  requestTimes = []
  requestBodies = []
  const run = await timedRun(process.execPath, execArgs(bin, undefined, mode), {
    cwd: project,
    env: cliEnv(root, dataHome, server.url),
  })
  const { code, stdout, stderr, started } = run
  const result = JSON.parse(stdout || '{}')
  const fixed = warmUp || readFileSync(join(project, 'add.js'), 'utf8').includes('a + b')
  if (code !== 0 || result.outcome !== 'done' || !fixed || requestTimes.length !== (warmUp ? 2 : 3))
    throw new Error(`task failed (exit ${code}, ${requestTimes.length} requests): ${stdout}\n${stderr}`)
  const [firstBody, ...laterBodies] = requestBodies.map((body) => JSON.parse(body))
  const map = JSON.stringify(firstBody.system ?? '').includes('<repository-map>')
    ? 'first'
    : laterBodies.some((body) => JSON.stringify(body.messages.at(-1)).includes('<repository-map>'))
      ? 'reminder'
      : 'none'
  return {
    firstRequest: requestTimes[0] - started,
    firstTool: requestTimes[1] - requestTimes[0],
    lastAnswerToExit: run.ended - requestTimes.at(-1),
    wall: run.wall,
    cpu: run.cpu,
    rss: run.rss,
    map,
  }
}

function report(label, samples) {
  const of = (key) => median(samples.map((sample) => sample[key]))
  console.log(
    `${label} (median of ${samples.length}): spawn → first request ${of('firstRequest').toFixed(0)} ms` +
      ` (min ${Math.min(...samples.map((s) => s.firstRequest)).toFixed(0)}),` +
      ` first answer → second request ${of('firstTool').toFixed(0)} ms,` +
      ` wall ${of('wall').toFixed(0)} ms (last answer → exit ${of('lastAnswerToExit').toFixed(0)} ms), CPU ${of('cpu').toFixed(0)} ms, peak RSS ${of('rss').toFixed(0)} MB;` +
      ` repository map: ${samples.map((sample) => sample.map).join(', ')}`,
  )
}

try {
  if (cases.has('tiny')) await tinyCase()
  if (cases.has('real') || cases.has('warm')) await realCases()
  if (cases.has('huge')) await hugeCase()
} finally {
  await server.close()
  rmSync(root, { recursive: true, force: true })
}

async function tinyCase() {
  const tiny = tinyRepo(root)
  const tinyData = join(root, 'data-tiny')
  await runTask(tiny, tinyData) // warm the OS file cache; not counted
  const tinySamples = []
  for (let run = 0; run < runs; run++) tinySamples.push(await runTask(tiny, tinyData))
  report('exec fix-the-bug, 3-file repository', tinySamples)
}

async function realCases() {
  const real = realisticRepo(root)
  const coldSamples = []
  for (let run = 0; run < (cases.has('real') ? runs : 0); run++) {
    // A fresh data dir each run: the first session ever in this repository.
    const data = join(root, `data-cold-${run}`)
    coldSamples.push(await runTask(real.dir, data))
    rmSync(data, { recursive: true, force: true })
  }
  if (cases.has('real'))
    report(`exec fix-the-bug, ${real.files}-file repository, first session there`, coldSamples)
  if (!cases.has('warm')) return
  const warmData = join(root, 'data-warm')
  // Earlier sessions in the repository, until one starts with the map (at most 5).
  warmUp = true
  for (let session = 0; session < 5; session++)
    if ((await runTask(real.dir, warmData, 'bypass')).map === 'first') break
  warmUp = false
  const warmSamples = []
  for (let run = 0; run < runs; run++) warmSamples.push(await runTask(real.dir, warmData))
  report(`exec fix-the-bug, ${real.files}-file repository, seen before`, warmSamples)
}

async function hugeCase() {
  const huge = hugeFolder(root)
  const hugeSamples = []
  const hugeData = []
  for (let run = 0; run < runs; run++) {
    const data = join(root, `data-huge-${run}`)
    hugeSamples.push(await runTask(huge, data))
    hugeData.push(treeBytes(join(data, 'z-engine', 'checkpoints')) / 1024)
    rmSync(data, { recursive: true, force: true })
  }
  report('exec fix-the-bug, 20,000-file folder (not a git repository)', hugeSamples)
  console.log(`  checkpoint data written there: ${median(hugeData).toFixed(0)} KiB (median)`)
}
