#!/usr/bin/env node
// `pnpm test:stress [--runs N] [--load N] [--max-minutes N] [file|dir|glob ...]`: runs the chosen
// vitest files N times (default 3) while busy loops keep every core loaded (one worker thread per
// core, stopped at the end), then prints each file's passes and a totals line. Exits 1 when any
// file failed even once. A test that waits for a race to go one way fails here; CI's machine is as
// loaded as this. With no file arguments it runs the whole suite; an argument is a path fragment
// (`packages/host`, `pty-early`) or a glob (`apps/cli/test/tui/pty-*.test.ts`) matched against the
// files vitest would run. Needs `pnpm build` first when CLI end-to-end tests are among the files.
import { spawn } from 'node:child_process'
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { parseArgs } from 'node:util'
import { Worker } from 'node:worker_threads'
import { testEnv } from './test-env.mjs'

const USAGE = `usage: pnpm test:stress [--runs N] [--load N] [--max-minutes N] [file|dir|glob ...]
  --runs N         how many times each file runs (default 3)
  --load N         busy threads spinning meanwhile (default: one per core, ${availableParallelism()})
  --max-minutes N  stop (and fail) when the runs take longer than this (default 60)`

let parsed
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      runs: { type: 'string', default: '3' },
      load: { type: 'string', default: String(availableParallelism()) },
      'max-minutes': { type: 'string', default: '60' },
      help: { type: 'boolean', short: 'h' },
    },
  })
} catch (error) {
  console.error(`stress: ${error.message}\n${USAGE}`)
  process.exit(2)
}
if (parsed.values.help) {
  console.log(USAGE)
  process.exit(0)
}
const count = (name, min) => {
  const value = Number(parsed.values[name])
  if (!Number.isInteger(value) || value < min) {
    console.error(`stress: --${name} takes a whole number of at least ${min}, not '${parsed.values[name]}'.`)
    process.exit(2)
  }
  return value
}
const runs = count('runs', 1)
const load = count('load', 0)
const maxMs = count('max-minutes', 1) * 60_000
const root = process.cwd()

const env = testEnv()
const work = mkdtempSync(join(tmpdir(), 'z-engine-stress-'))

/** Runs a command to its end, its output written to `logFile` as it comes; resolves with its exit code. */
function run(args, logFile) {
  return new Promise((resolve) => {
    // Its own process group, so a run past the deadline is stopped with everything it started.
    const child = spawn('pnpm', ['exec', ...args], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    const log = createWriteStream(logFile)
    let tail = ''
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (data) => {
        log.write(data)
        tail = (tail + data).slice(-3000)
      })
    }
    const timer = setTimeout(
      () => {
        console.error('stress: past --max-minutes; stopping the run in progress.')
        try {
          process.kill(-child.pid, 'SIGKILL')
        } catch {
          // Already gone.
        }
      },
      Math.max(deadline - Date.now(), 0),
    )
    child.on('close', (code) => {
      clearTimeout(timer)
      log.end(() => resolve({ code: code ?? 1, tail }))
    })
  })
}

/** A glob (`*`, `**`, `?`) as a regular expression over a path relative to the repository. */
function globRegExp(glob) {
  let source = ''
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]
    if (char === '*' && glob[i + 1] === '*') {
      source += '.*'
      i += glob[i + 2] === '/' ? 2 : 1
    } else if (char === '*') source += '[^/]*'
    else if (char === '?') source += '[^/]'
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${source}$`)
}

const startedAt = Date.now()
const deadline = startedAt + maxMs

// The files vitest would run, narrowed by the arguments.
const listFile = join(work, 'files.json')
const listed = await run(['vitest', 'list', '--filesOnly', `--json=${listFile}`], join(work, 'list.log'))
if (listed.code !== 0) {
  console.error(`stress: vitest could not list the test files:\n${listed.tail}`)
  process.exit(1)
}
const all = JSON.parse(readFileSync(listFile, 'utf8')).map((entry) => relative(root, entry.file))
const wanted = parsed.positionals.map((arg) => arg.replace(/^\.\//, '').replace(/\/$/, ''))
const files = all
  .filter(
    (file) =>
      wanted.length === 0 ||
      wanted.some((arg) => (/[*?]/.test(arg) ? globRegExp(arg).test(file) : file.includes(arg))),
  )
  .sort()
if (files.length === 0) {
  console.error(`stress: no test file matches ${wanted.join(' ')}.`)
  process.exit(2)
}

// The load: threads that spin until terminated. They live in this process, so they end with it too.
const spinners = Array.from({ length: load }, () =>
  new Worker('for (;;) {}', { eval: true }).on('error', () => {}),
)
const stopLoad = async () => {
  await Promise.all(spinners.splice(0).map((worker) => worker.terminate()))
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    void stopLoad().finally(() => {
      rmSync(work, { recursive: true, force: true })
      process.exit(130)
    })
  })
}

console.log(`stress: ${files.length} file(s), ${runs} run(s), ${load} busy thread(s); logs in ${work}`)
const passes = new Map(files.map((file) => [file, 0]))
/** Each file's summed duration over the runs (vitest's own per-file start and end), for the slowest list. */
const durations = new Map(files.map((file) => [file, 0]))
const failures = new Map(files.map((file) => [file, []]))
const runTimes = []
let stopped = false
for (let index = 1; index <= runs; index++) {
  if (Date.now() >= deadline) {
    stopped = true
    break
  }
  const report = join(work, `run-${index}.json`)
  const runStart = Date.now()
  rmSync(report, { force: true })
  const { code } = await run(
    ['vitest', 'run', '--reporter=dot', '--reporter=json', `--outputFile.json=${report}`, ...files],
    join(work, `run-${index}.log`),
  )
  const seconds = (Date.now() - runStart) / 1000
  runTimes.push(seconds)
  let results = []
  try {
    results = JSON.parse(readFileSync(report, 'utf8')).testResults ?? []
  } catch {
    // No report: every file of this run counts as failed below.
  }
  const byFile = new Map(results.map((suite) => [relative(root, suite.name), suite]))
  let failedFiles = 0
  for (const file of files) {
    const suite = byFile.get(file)
    if (suite?.startTime && suite?.endTime)
      durations.set(file, durations.get(file) + (suite.endTime - suite.startTime) / 1000)
    if (suite?.status === 'passed') {
      passes.set(file, passes.get(file) + 1)
      continue
    }
    failedFiles += 1
    const tests = (suite?.assertionResults ?? []).filter((test) => test.status === 'failed')
    const why =
      suite === undefined
        ? 'no result (the run crashed or was stopped)'
        : tests.length > 0
          ? tests
              .map((test) => `"${test.fullName}": ${(test.failureMessages?.[0] ?? '').split('\n')[0]}`)
              .join('; ')
          : (suite.message ?? '').split('\n')[0] || 'failed to load'
    failures.get(file).push(`run ${index}: ${why}`)
  }
  console.log(
    `stress: run ${index}/${runs}: ${files.length - failedFiles} passed, ${failedFiles} failed (vitest exit ${code}) in ${seconds.toFixed(0)} s`,
  )
}
await stopLoad()

const done = runTimes.length
const width = Math.max(...files.map((file) => file.length))
let failedAny = stopped
for (const file of files) {
  const passed = passes.get(file)
  if (passed < done) failedAny = true
  console.log(`${file.padEnd(width)}  ${passed}/${done}${passed < done ? '  FAILED' : ''}`)
  for (const line of failures.get(file)) console.log(`    ${line}`)
}
const slowest = [...durations].sort((a, b) => b[1] - a[1]).slice(0, 10)
if (done > 0 && files.length > 1) {
  console.log('slowest files (mean seconds a run, under the load):')
  for (const [file, total] of slowest) console.log(`  ${(total / done).toFixed(1).padStart(6)}  ${file}`)
}
const fileRuns = files.length * done
const passedRuns = [...passes.values()].reduce((sum, value) => sum + value, 0)
const wall = (Date.now() - startedAt) / 1000
console.log(
  `stress totals: ${files.length} files × ${done} runs under ${load} busy threads: ${passedRuns}/${fileRuns} file-runs passed, ${fileRuns - passedRuns} failed; runs took ${runTimes.map((s) => `${s.toFixed(0)} s`).join(', ')} (wall ${wall.toFixed(0)} s)${stopped ? `; stopped after ${done} of ${runs} runs (--max-minutes)` : ''}`,
)
if (!failedAny) rmSync(work, { recursive: true, force: true })
else console.log(`stress: vitest's output of each run is in ${work}`)
process.exit(failedAny ? 1 : 0)
