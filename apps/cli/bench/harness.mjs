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

/** The modules every feature of {@link largeRepo} imports: what a good map of it names. */
const LARGE_HUBS = ['cache', 'clock', 'config', 'errors', 'events', 'http', 'ids', 'logger', 'queue', 'store']

/**
 * A real-shaped git repository of about 20,000 files under `root`: 2,000 TypeScript sources in 40
 * feature folders, each importing a few of 10 core modules (`src/core/*.ts`, the most referenced),
 * tests beside them, a `.gitignore`d `node_modules` (300 packages, 15,000 files) and build output
 * (`dist/`, 3,000 files), plus the bug file. Sources are written in path order, as a checkout
 * writes them. Returns the folder, the file count, the source count and the core modules' paths.
 */
export function largeRepo(root) {
  const dir = mkdtempSync(join(root, 'large-'))
  const write = (path, text) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  const sources = new Map()
  for (const hub of LARGE_HUBS) {
    const type = hub[0].toUpperCase() + hub.slice(1)
    sources.set(
      `src/core/${hub}.ts`,
      `/** The ${hub} service every feature uses. */\nexport interface ${type}Options {\n  name: string\n  limit?: number\n}\n\nexport class ${type} {\n  constructor(private readonly options: ${type}Options) {}\n  describe(): string {\n    return this.options.name\n  }\n}\n\nexport function use${type}(name: string): ${type} {\n  return new ${type}({ name })\n}\n`,
    )
  }
  for (let area = 0; area < 40; area++)
    for (let file = 0; file < 45; file++) {
      const hubs = [LARGE_HUBS[(area + file) % 10], LARGE_HUBS[(area * 3 + file * 7 + 1) % 10]]
      const imports = [...new Set(hubs)]
        .map((hub) => `import { use${hub[0].toUpperCase()}${hub.slice(1)} } from '../core/${hub}.js'`)
        .join('\n')
      const calls = [...new Set(hubs)].map(
        (hub) => `use${hub[0].toUpperCase()}${hub.slice(1)}('a${area}f${file}')`,
      )
      sources.set(
        `src/area${area}/feature${file}.ts`,
        `${imports}\n\nexport interface Feature${area}x${file}Input {\n  id: string\n  count: number\n}\n\nexport function runFeature${area}x${file}(input: Feature${area}x${file}Input): string {\n  const parts = [${calls.join(', ')}]\n  return parts.map((part) => part.describe()).join(input.id)\n}\n`,
      )
      if (file < 5)
        sources.set(
          `src/area${area}/feature${file}.test.ts`,
          `import { runFeature${area}x${file} } from './feature${file}.js'\nif (runFeature${area}x${file}({ id: '-', count: 1 }) === '') throw new Error('empty')\n`,
        )
    }
  sources.set('README.md', '# large\n\nA generated, real-shaped repository.\n')
  sources.set('package.json', '{"name":"large","type":"module","private":true}\n')
  sources.set('.gitignore', 'node_modules/\ndist/\n')
  sources.set('add.js', BUG)
  for (const path of [...sources.keys()].sort()) write(path, sources.get(path))
  let files = sources.size
  // Dependencies (ignored): 300 packages of 50 files.
  for (let pkg = 0; pkg < 300; pkg++) {
    write(
      `node_modules/pkg-${pkg}/package.json`,
      `{"name":"pkg-${pkg}","version":"1.0.${pkg}","main":"index.js"}\n`,
    )
    for (let file = 0; file < 49; file++)
      write(
        `node_modules/pkg-${pkg}/lib/part${file}.js`,
        `export function part${pkg}x${file}(value) {\n  return value + ${file}\n}\n`,
      )
    files += 50
  }
  // Build output (ignored): 3,000 files.
  for (let area = 0; area < 40; area++)
    for (let file = 0; file < 75; file++) {
      write(
        `dist/area${area}/out${file}.js`,
        `export function built${area}x${file}(input) {\n  return input\n}\n`,
      )
      files += 1
    }
  commitAll(dir)
  const sourceCount = [...sources.keys()].filter((path) => path.startsWith('src/')).length
  return { dir, files, sources: sourceCount, hubs: LARGE_HUBS.map((hub) => `src/core/${hub}.ts`) }
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
