// What the CLI benchmarks share (issue 17): the builds to measure, the projects they run in (a
// 3-file repository with a bug, a copy of this repository, a 20,000-file folder), the scripted
// model's fix-the-bug answers, the environment a run gets, a timed run of a process under
// /usr/bin/time, CPU read from /proc, and the statistics printed. Run `pnpm build` first.
import { execFileSync, spawn } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

const here = import.meta.dirname
/** This repository's root. */
export const repoRoot = resolve(here, '../../..')
const testing = resolve(repoRoot, 'packages/engine/dist/testing.js')

/**
 * The CLI builds to measure: BENCH_CLI=<bin.js>[,<bin.js>…], else this package's dist/bin.js.
 * Exits with a message when a build (or the engine's testing entry, for the scripted server) is missing.
 */
export function cliBins() {
  const bins = (process.env.BENCH_CLI ?? resolve(here, '../dist/bin.js'))
    .split(',')
    .map((bin) => resolve(bin))
  for (const file of [...bins, testing])
    if (!existsSync(file)) {
      console.error(`Build first: pnpm build (${file} is missing).`)
      process.exit(1)
    }
  return bins
}

/** The scripted wire server of `@z-engine/engine/testing` (built). */
export async function startScriptedServer(respond) {
  const module = await import(testing)
  return module.startScriptedServer(respond)
}

/** BENCH_RUNS, else `fallback`. */
export const benchRuns = (fallback) => Number(process.env.BENCH_RUNS ?? fallback)

/** BENCH_CASES as a set, else `fallback` (comma-separated). */
export const benchCases = (fallback) => new Set((process.env.BENCH_CASES ?? fallback).split(','))

/** A fresh temp folder for one benchmark's projects and data dirs. */
export const scratchDir = (name) => mkdtempSync(join(tmpdir(), `z-bench-${name}-`))

/** The bug every task fixes. */
export const BUG = 'export function add(a, b) {\n  return a - b\n}\n'
export const PROMPT = 'add.js has a bug: fix it'

const git = (cwd, ...args) => execFileSync('git', args, { cwd, stdio: 'ignore' })
function commitAll(cwd) {
  git(cwd, 'init', '-q')
  git(cwd, 'add', '-A')
  git(cwd, '-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-qm', 'init')
}

/** A 3-file git repository with the bug, under `root`. */
export function tinyRepo(root) {
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

/** A git repository holding this repository's tracked files (as they are now) plus the bug file. */
export function realisticRepo(root) {
  const dir = mkdtempSync(join(root, 'real-'))
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean)
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    try {
      cpSync(join(repoRoot, file), join(dir, file))
    } catch {
      // Tracked but deleted in the work tree: left out.
    }
  }
  writeFileSync(join(dir, 'add.js'), BUG)
  commitAll(dir)
  return { dir, files: files.length + 1 }
}

/** A folder (not a git repository) of 20,000 small files in 200 folders, plus the bug file. */
export function hugeFolder(root) {
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
export function treeBytes(dir) {
  let total = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += statSync(join(entry.parentPath ?? entry.path, entry.name)).size
  return total
}

/**
 * The fix-the-bug answers in Anthropic Messages terms, by how many assistant turns the request
 * holds: Read `file`, Edit it, then a text answer.
 */
export function fixTheBugAnswer(messages, file) {
  const round = messages.filter((message) => message.role === 'assistant').length
  if (round === 0) return { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: file } }] }
  if (round === 1)
    return {
      blocks: [
        {
          type: 'tool_use',
          name: 'Edit',
          input: { file_path: file, old_string: 'a - b', new_string: 'a + b' },
        },
      ],
    }
  return { blocks: [{ type: 'text', text: 'Fixed: add now adds.' }] }
}

/** The environment of a z-engine run: a private HOME and config under `root`, data in `dataHome`. */
export function cliEnv(root, dataHome, serverUrl) {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: join(root, 'home'),
    XDG_DATA_HOME: dataHome,
    XDG_CONFIG_HOME: join(root, 'config'),
    ANTHROPIC_BASE_URL: serverUrl,
    ANTHROPIC_API_KEY: 'bench',
  }
}

/** `z-engine exec` arguments for `prompt` with `bin`, JSON output. */
export const execArgs = (bin, prompt = PROMPT, mode = 'acceptEdits') => [
  bin,
  'exec',
  '--model',
  'anthropic/claude-sonnet-4-5',
  '--permission-mode',
  mode,
  '--output-format',
  'json',
  prompt,
]

/**
 * Runs `file args` under /usr/bin/time in `cwd`; resolves when it exits with its exit code,
 * output, wall ms, CPU ms (user+sys of it and every child it waited for) and peak RSS (MB) of its
 * largest process. `onSpawn` gets the child (for /proc reads while it runs).
 */
export async function timedRun(file, args, { cwd, env, onSpawn }) {
  const started = performance.now()
  const child = spawn('/usr/bin/time', ['-f', '%U %S %M', file, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  onSpawn?.(child)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  const code = await new Promise((done) => child.on('close', done))
  const ended = performance.now()
  const [user, sys, rssKb] = stderr.trim().split('\n').at(-1).split(' ').map(Number)
  return {
    code,
    stdout,
    stderr,
    started,
    ended,
    wall: ended - started,
    cpu: (user + sys) * 1000,
    rss: rssKb / 1024,
  }
}

const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim())

/** user+sys ms so far of process `pid` (all its threads) and of the children it has waited for. */
export function cpuOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = (index) => Number(fields[index - 3])
  return { own: (ticks(14) + ticks(15)) * TICK_MS, children: (ticks(16) + ticks(17)) * TICK_MS }
}

/** The `q` quantile (0.5: the median) of `values`. */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]
}
export const median = (values) => quantile(values, 0.5)

/** The machine's load averages, for the figures' context. */
export const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')
