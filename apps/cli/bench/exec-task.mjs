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
import { execFileSync, spawn } from 'node:child_process'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

const here = import.meta.dirname
const repoRoot = resolve(here, '../../..')
const bin = resolve(process.env.BENCH_CLI ?? resolve(here, '../dist/bin.js'))
const testing = resolve(here, '../../../packages/engine/dist/testing.js')
try {
  readFileSync(bin)
  readFileSync(testing)
} catch {
  console.error('Build first: pnpm build (needs apps/cli/dist and packages/engine/dist).')
  process.exit(1)
}
const { startScriptedServer } = await import(testing)
const runs = Number(process.env.BENCH_RUNS ?? 5)
const cases = new Set((process.env.BENCH_CASES ?? 'tiny,real,warm,huge').split(','))
const time = '/usr/bin/time'

const root = mkdtempSync(join(tmpdir(), 'z-bench-task-'))
const git = (cwd, ...args) => execFileSync('git', args, { cwd, stdio: 'ignore' })
const commitAll = (cwd) => {
  git(cwd, 'init', '-q')
  git(cwd, 'add', '-A')
  git(cwd, '-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-qm', 'init')
}
const BUG = 'export function add(a, b) {\n  return a - b\n}\n'

/** A 3-file repository with the bug. */
function tinyRepo() {
  const dir = mkdtempSync(join(root, 'tiny-'))
  writeFileSync(join(dir, 'README.md'), '# tiny\n\n`add` should add.\n')
  writeFileSync(join(dir, 'add.js'), BUG)
  writeFileSync(
    join(dir, 'add.test.js'),
    "import { add } from './add.js'\nif (add(2, 3) !== 5) throw new Error('add is wrong')\n",
  )
  commitAll(dir)
  return dir
}

/** A copy of this repository's tracked files (as committed or edited now) plus the bug file. */
function realisticRepo() {
  const dir = mkdtempSync(join(root, 'real-'))
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean)
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    try {
      cpSync(join(repoRoot, file), join(dir, file))
    } catch {
      // Deleted in the work tree but still tracked: leave it out.
    }
  }
  writeFileSync(join(dir, 'add.js'), BUG)
  commitAll(dir)
  return { dir, files: files.length + 1 }
}

/** A folder (not a git repository) of 20,000 small files in 200 folders, plus the bug file. */
function hugeFolder() {
  const dir = mkdtempSync(join(root, 'huge-'))
  for (let folder = 0; folder < 200; folder++) {
    mkdirSync(join(dir, `d${folder}`))
    for (let file = 0; file < 100; file++)
      writeFileSync(join(dir, `d${folder}`, `f${file}.txt`), `folder ${folder} file ${file}\n`)
  }
  writeFileSync(join(dir, 'add.js'), BUG)
  return dir
}

/** Bytes under `dir` (apparent sizes). */
function treeBytes(dir) {
  let total = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath ?? entry.path, entry.name)).size
  }
  return total
}

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
  if (round === 0) return { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: 'add.js' } }] }
  if (round === 1)
    return {
      blocks: [
        {
          type: 'tool_use',
          name: 'Edit',
          input: { file_path: 'add.js', old_string: 'a - b', new_string: 'a + b' },
        },
      ],
    }
  return { blocks: [{ type: 'text', text: 'Fixed: add now adds.' }] }
})

/** Runs the task once in `project` with `dataHome`; returns its figures. */
async function runTask(project, dataHome, mode = 'acceptEdits') {
  writeFileSync(join(project, 'add.js'), BUG)
  requestTimes = []
  requestBodies = []
  const started = performance.now()
  const child = spawn(
    time,
    [
      '-f',
      '%U %S %M',
      process.execPath,
      bin,
      'exec',
      '--model',
      'anthropic/claude-sonnet-4-5',
      '--permission-mode',
      mode,
      '--output-format',
      'json',
      'add.js has a bug: fix it',
    ],
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
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  const code = await new Promise((done) => child.on('close', done))
  const wall = performance.now() - started
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
  const [user, sys, rssKb] = stderr.trim().split('\n').at(-1).split(' ').map(Number)
  return {
    firstRequest: requestTimes[0] - started,
    firstTool: requestTimes[1] - requestTimes[0],
    wall,
    cpu: (user + sys) * 1000,
    rss: rssKb / 1024,
    map,
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}
function report(label, samples) {
  const of = (key) => median(samples.map((sample) => sample[key]))
  console.log(
    `${label} (median of ${samples.length}): spawn → first request ${of('firstRequest').toFixed(0)} ms` +
      ` (min ${Math.min(...samples.map((s) => s.firstRequest)).toFixed(0)}),` +
      ` first answer → second request ${of('firstTool').toFixed(0)} ms,` +
      ` wall ${of('wall').toFixed(0)} ms, CPU ${of('cpu').toFixed(0)} ms, peak RSS ${of('rss').toFixed(0)} MB;` +
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
  const tiny = tinyRepo()
  const tinyData = join(root, 'data-tiny')
  await runTask(tiny, tinyData) // warm the OS file cache; not counted
  const tinySamples = []
  for (let run = 0; run < runs; run++) tinySamples.push(await runTask(tiny, tinyData))
  report('exec fix-the-bug, 3-file repository', tinySamples)
}

async function realCases() {
  const real = realisticRepo()
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
  const huge = hugeFolder()
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
