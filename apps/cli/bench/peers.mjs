#!/usr/bin/env node
// Issue 17's and issue 40's comparison: z-engine, Claude Code and Codex doing the same scripted work
// against the same local scripted server, side by side in one run:
// - tiny: the fix-the-bug task (read add.js, fix `a - b`, answer) in a 3-file git repository;
// - real: the same task in a copy of this repository's tracked tree;
// - large: the same task in a generated 20,000-file real-shaped repository (TypeScript sources, a
//   `.gitignore`d node_modules and build output), with the quality of z-engine's repository map
//   (which files it names: sources, not dependencies or build output; the most-used modules);
// - session: a 100-round session in the copy of this repository (99 file reads, then an answer).
// Per CLI and case, median of BENCH_RUNS (default 5; the session: BENCH_SESSION_RUNS, default 1)
// runs, alternating CLIs run by run so load changes hit them alike: spawn → first model request,
// wall, last request → exit, CPU (user+sys of the process and every child it waited for) and peak
// RSS of the largest process (/usr/bin/time). Ends with the issue's table and the load average.
// The peers are this package's pinned dev dependencies (`@anthropic-ai/claude-code`,
// `@openai/codex`); BENCH_PEERS=<dir> takes them from <dir>/node_modules instead, and a peer not
// found is skipped. Claude Code talks Anthropic Messages (ANTHROPIC_BASE_URL), Codex the Responses
// API (a custom provider in a temp CODEX_HOME); each gets its own tools' calls: Read/Edit for
// z-engine and Claude Code, exec_command `cat`/`sed` for Codex, which has no file tools.
// Before its measured runs z-engine is warmed until its first request holds the repository map (a
// project seen before). Run `pnpm build` first. BENCH_CASES=tiny,real,large,session picks the cases.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import {
  BUG,
  benchCases,
  benchRuns,
  cliBins,
  cliEnv,
  execArgs,
  fixTheBugAnswer,
  largeRepo,
  loadAverage,
  median,
  PROMPT,
  realisticRepo,
  scratchDir,
  startScriptedServer,
  timedRun,
  tinyRepo,
} from './harness.mjs'

const [bin] = cliBins()
const runs = benchRuns(5)
const sessionRuns = Number(process.env.BENCH_SESSION_RUNS ?? 1)
const cases = benchCases('tiny,real,large,session')
const root = scratchDir('peers')
const cleanups = []
const SESSION_ROUNDS = 100
const MAP_TAG = '<repository-map>'

/** The task being run: answers by wire format and by how many tool results came back. */
let task
/** The current run's requests and what the first one carried. */
let run = { main: [], all: [], firstSystem: '', mapText: '', holdFirst: undefined }

const server = await startScriptedServer(async (request) => {
  const now = performance.now()
  run.all.push(now)
  const body = request.body
  const tools = Array.isArray(body.tools) ? body.tools : []
  // Side requests (titles, topic checks, quota probes) carry no tools: a short answer.
  if (tools.length === 0) return { blocks: [{ type: 'text', text: 'ok' }] }
  if (run.main.length === 0) run.firstSystem = JSON.stringify(body.system ?? '')
  run.main.push(now)
  const text = JSON.stringify(body)
  if (run.mapText === '' && text.includes(MAP_TAG)) run.mapText = mapOf(text)
  if (run.main.length === 1 && run.holdFirst) await run.holdFirst()
  if (request.format === 'openai-responses') {
    const input = Array.isArray(body.input) ? body.input : []
    return task.responses(input.filter((item) => item?.type === 'function_call_output').length)
  }
  const messages = Array.isArray(body.messages) ? body.messages : []
  return task.messages(messages.filter((message) => message.role === 'assistant').length, messages)
})

/** The repository map's text from a request body (JSON-escaped), up to its closing tag. */
function mapOf(bodyText) {
  const start = bodyText.indexOf(MAP_TAG)
  const end = bodyText.indexOf('</repository-map>', start)
  return JSON.parse(`"${bodyText.slice(start, end < 0 ? undefined : end)}"`)
}

/** The fix-the-bug task in `project`: three main requests, add.js fixed. */
function fixTheBug(project) {
  return {
    name: 'fix-the-bug',
    requests: 3,
    reset: () => writeFileSync(join(project, 'add.js'), BUG),
    done: () => readFileSync(join(project, 'add.js'), 'utf8').includes('a + b'),
    messages: (_round, messages) => fixTheBugAnswer(messages, join(project, 'add.js')),
    responses: (done) => {
      if (done === 0)
        return { blocks: [{ type: 'tool_use', name: 'exec_command', input: { cmd: 'cat add.js' } }] }
      if (done === 1)
        return {
          blocks: [
            { type: 'tool_use', name: 'exec_command', input: { cmd: "sed -i 's/a - b/a + b/' add.js" } },
          ],
        }
      return { blocks: [{ type: 'text', text: 'Fixed: add now adds.' }] }
    },
  }
}

/** A session of SESSION_ROUNDS requests in `project`: a read of another of `files` each round, then an answer. */
function longSession(project, files) {
  const last = SESSION_ROUNDS - 1
  return {
    name: `${SESSION_ROUNDS}-round session`,
    requests: SESSION_ROUNDS,
    reset: () => writeFileSync(join(project, 'add.js'), BUG),
    done: () => true,
    messages: (round) =>
      round < last
        ? { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(project, files[round]) } }] }
        : { blocks: [{ type: 'text', text: `Read ${last} files.` }] },
    responses: (done) =>
      done < last
        ? { blocks: [{ type: 'tool_use', name: 'exec_command', input: { cmd: `cat ${files[done]}` } }] }
        : { blocks: [{ type: 'text', text: `Read ${last} files.` }] },
  }
}

const home = join(root, 'home')
mkdirSync(home)
const baseEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8' }

/** A peer's package folder: under BENCH_PEERS, else resolved from this package's dev dependencies. */
function peerPackage(name) {
  try {
    const from = process.env.BENCH_PEERS
      ? join(process.env.BENCH_PEERS, 'node_modules', name, 'package.json')
      : createRequire(import.meta.url).resolve(`${name}/package.json`)
    if (!existsSync(from)) return undefined
    const manifest = JSON.parse(readFileSync(from, 'utf8'))
    const binPath = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0]
    return binPath ? { bin: join(dirname(from), binPath), version: manifest.version } : undefined
  } catch {
    return undefined
  }
}

/** The CLIs to compare: how each is started against the scripted server. */
const clis = [
  {
    name: 'z-engine',
    command: (data) => ({
      file: process.execPath,
      args: execArgs(bin),
      env: { ...cliEnv(root, data, server.url), HOME: home, LANG: 'C.UTF-8' },
    }),
  },
]
const claude = peerPackage('@anthropic-ai/claude-code')
if (claude)
  clis.push({
    name: 'Claude Code',
    version: claude.version,
    command: () => ({
      file: claude.bin,
      args: [
        '-p',
        PROMPT,
        '--output-format',
        'json',
        '--permission-mode',
        'acceptEdits',
        '--model',
        'claude-sonnet-4-5',
      ],
      env: {
        ...baseEnv,
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'bench',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
      },
    }),
  })
else console.log('Claude Code: not installed (pnpm install, or BENCH_PEERS); skipped')
const codex = peerPackage('@openai/codex')
if (codex) {
  // Not under the temp dir: Codex refuses to put its sandbox helper there, and its commands then fail.
  mkdirSync(join(homedir(), '.cache'), { recursive: true })
  const codexHome = mkdtempSync(join(homedir(), '.cache', 'z-bench-codex-home-'))
  cleanups.push(() => rmSync(codexHome, { recursive: true, force: true }))
  writeFileSync(
    join(codexHome, 'config.toml'),
    `model = "gpt-5"\nmodel_provider = "scripted"\n\n[model_providers.scripted]\nname = "scripted"\nbase_url = "${server.openaiBaseUrl}"\nwire_api = "responses"\nenv_key = "SCRIPTED_API_KEY"\n`,
  )
  clis.push({
    name: 'Codex',
    version: codex.version,
    command: () => ({
      file: process.execPath,
      args: [codex.bin, 'exec', '-s', 'workspace-write', '--skip-git-repo-check', PROMPT],
      env: { ...baseEnv, CODEX_HOME: codexHome, SCRIPTED_API_KEY: 'bench' },
    }),
  })
} else console.log('Codex: not installed (pnpm install, or BENCH_PEERS); skipped')

/** The case being measured: each has its own data dirs (a project z-engine has not seen yet). */
let caseName = ''
const dataOf = (cli) => join(root, `data-${caseName}-${cli.name}`)

/** The outline cache files in z-engine's data dir (written once a map build completed or stopped). */
function outlineCaches(data) {
  const dir = join(data, 'z-engine', 'repo-map')
  return existsSync(dir)
    ? readdirSync(dir).filter((name) => !name.includes('.snapshot.') && name.endsWith('.json'))
    : []
}

/** One run of the current task by `cli` in `project`; its figures. */
async function runTask(cli, project, hold) {
  task.reset()
  run = { main: [], all: [], firstSystem: '', mapText: '', holdFirst: hold }
  const { file, args, env } = cli.command(dataOf(cli))
  const { code, stdout, stderr, started, ended, wall, cpu, rss } = await timedRun(file, args, {
    cwd: project,
    env,
  })
  if (code !== 0 || !task.done() || run.main.length !== task.requests)
    throw new Error(
      `${cli.name}: ${task.name} failed (exit ${code}, ${run.main.length} of ${task.requests} requests, done ${task.done()}):\n${stdout.slice(-1500)}\n${stderr.slice(-1500)}`,
    )
  return {
    firstRequest: run.main[0] - started,
    wall,
    lastRequestToExit: ended - run.main.at(-1),
    cpu,
    rss,
    sideRequests: run.all.length - run.main.length,
    mapInFirst: run.firstSystem.includes(MAP_TAG),
    mapText: run.mapText,
  }
}

/** z-engine's warm-up: until its first request holds the map (at most 6 sessions). */
async function warmZEngine(cli, project) {
  for (let session = 0; session < 6; session++) {
    // A project never seen: the first answer waits until the map's build finished and was saved
    // (a state, with a ceiling), so one session builds it whole rather than a slice per session.
    const data = dataOf(cli)
    const hold =
      outlineCaches(data).length === 0
        ? async () => {
            const deadline = Date.now() + 300_000
            while (outlineCaches(data).length === 0 && Date.now() < deadline)
              await new Promise((resolve) => setTimeout(resolve, 50))
          }
        : undefined
    if ((await runTask(cli, project, hold)).mapInFirst) return
  }
}

/** Figures of every CLI in `project` for the current task, median of `count` alternated runs. */
async function compare(label, project, count, { dataKey, warm = true } = {}) {
  caseName = dataKey ?? label.replace(/[^a-z0-9]+/gi, '-')
  const samples = new Map(clis.map((cli) => [cli, []]))
  // Warm-up, not counted (Claude Code and Codex: one run each); none when an earlier case warmed
  // every CLI in this project.
  for (const cli of clis) {
    if (!warm) break
    if (cli.name === 'z-engine') await warmZEngine(cli, project)
    else await runTask(cli, project)
  }
  for (let index = 0; index < count; index++)
    for (const cli of clis) samples.get(cli).push(await runTask(cli, project))
  const summary = new Map()
  for (const cli of clis) {
    const list = samples.get(cli)
    const of = (key) => median(list.map((sample) => sample[key]))
    const figures = {
      firstRequest: of('firstRequest'),
      wall: of('wall'),
      exit: of('lastRequestToExit'),
      cpu: of('cpu'),
      rss: of('rss'),
      maps: list.filter((sample) => sample.mapInFirst).length,
      runs: list.length,
      mapText: list.find((sample) => sample.mapText !== '')?.mapText ?? '',
    }
    summary.set(cli.name, figures)
    console.log(
      `${label}, ${cli.name}${cli.version ? ` ${cli.version}` : ''} (median of ${list.length}): spawn → first request ${figures.firstRequest.toFixed(0)} ms` +
        ` (min ${Math.min(...list.map((s) => s.firstRequest)).toFixed(0)}), wall ${figures.wall.toFixed(0)} ms` +
        ` (last request → exit ${figures.exit.toFixed(0)} ms), CPU ${figures.cpu.toFixed(0)} ms, peak RSS ${figures.rss.toFixed(0)} MB` +
        `${list[0].sideRequests ? `, ${list[0].sideRequests} side requests` : ''}` +
        `${cli.name === 'z-engine' ? `, repository map in ${figures.maps}/${list.length} first requests` : ''}`,
    )
  }
  return summary
}

/** Which files a map names (its `path:` lines), against what a good map of the large repository holds. */
function mapQuality(text, expected) {
  const named = text
    .split('\n')
    .map((line) => /^([^\s:][^:]*):$/.exec(line)?.[1])
    .filter((path) => path !== undefined)
  const ignored = named.filter((path) => path.startsWith('node_modules/') || path.startsWith('dist/'))
  const hubs = expected.hubs.filter((hub) => named.includes(hub))
  return {
    named: named.length,
    sources: named.filter((path) => path.startsWith('src/')).length,
    ignored,
    hubs,
  }
}

const results = {}
const ms = (value) => (value === undefined ? '—' : `${Math.round(value)}`)
try {
  const loadStart = loadAverage()
  console.log(`load average at start: ${loadStart}`)
  let real
  const realRepo = () => {
    real ??= realisticRepo(root)
    return real
  }
  if (cases.has('tiny')) {
    const project = tinyRepo(root)
    task = fixTheBug(project)
    results.tiny = await compare('fix-the-bug, 3-file repository', project, runs)
  }
  if (cases.has('real')) {
    const { dir, files } = realRepo()
    task = fixTheBug(dir)
    results.real = await compare(`fix-the-bug, copy of this repository (${files} files)`, dir, runs, {
      dataKey: 'real',
    })
    results.realFiles = files
  }
  if (cases.has('large')) {
    const large = largeRepo(root)
    task = fixTheBug(large.dir)
    results.large = await compare(
      `fix-the-bug, generated ${large.files.toLocaleString('en')}-file repository (${large.sources.toLocaleString('en')} sources; node_modules and dist ignored)`,
      large.dir,
      runs,
    )
    const quality = mapQuality(results.large.get('z-engine')?.mapText ?? '', large)
    results.quality = quality
    console.log(
      `  z-engine's map there: names ${quality.named} files, ${quality.sources} of them sources under src/, ${quality.ignored.length} from node_modules/ or dist/${quality.ignored.length ? ` (${quality.ignored.slice(0, 3).join(', ')}…)` : ''}; ${quality.hubs.length} of the ${large.hubs.length} most-imported modules (${large.hubs.join(', ')})`,
    )
  }
  if (cases.has('session')) {
    const { dir } = realRepo()
    // Real source files to read, one a round: the engine's own, in path order.
    const reads = readdirSync(join(dir, 'packages/engine/src'), { recursive: true })
      .filter((name) => typeof name === 'string' && name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .sort()
      .slice(0, SESSION_ROUNDS - 1)
      .map((name) => `packages/engine/src/${name}`)
    task = longSession(dir, reads)
    results.session = await compare(
      `${SESSION_ROUNDS}-round session, copy of this repository`,
      dir,
      sessionRuns,
      { dataKey: 'real', warm: results.real === undefined },
    )
  }
  const loadEnd = loadAverage()
  console.log(`load average at end: ${loadEnd}`)
  printTable(loadStart, loadEnd)
} finally {
  await server.close()
  rmSync(root, { recursive: true, force: true })
  for (const cleanup of cleanups) cleanup()
}

/** The issue's table: one row per figure, one column per CLI, z-engine's ratio to the best peer. */
function printTable(loadStart, loadEnd) {
  const names = ['Claude Code', 'Codex', 'z-engine']
  const rows = []
  const row = (label, summary, pick, format = ms) => {
    if (!summary) return
    const values = names.map((name) => (summary.get(name) ? pick(summary.get(name)) : undefined))
    const peers = values.slice(0, 2).filter((value) => typeof value === 'number')
    const own = values[2]
    const ratio =
      typeof own === 'number' && peers.length > 0
        ? ` (${(own / Math.min(...peers)).toFixed(2)}× best peer)`
        : ''
    rows.push(
      `| ${label} | ${values.map((value) => (value === undefined ? '—' : format(value))).join(' | ')}${ratio} |`,
    )
  }
  const seconds = (value) => (value / 1000).toFixed(2)
  const realLabel = `real repo (${results.realFiles ?? '?'} files)`
  row('spawn → first request, 3-file repo (ms)', results.tiny, (f) => f.firstRequest)
  row(`spawn → first request, ${realLabel} (ms)`, results.real, (f) => f.firstRequest)
  row('spawn → first request, 20,000-file repo (ms)', results.large, (f) => f.firstRequest)
  row('CPU, 3-file repo (s)', results.tiny, (f) => f.cpu, seconds)
  row(`CPU, ${realLabel} (s)`, results.real, (f) => f.cpu, seconds)
  row('CPU, 20,000-file repo (s)', results.large, (f) => f.cpu, seconds)
  row('peak RSS, 20,000-file repo (MB)', results.large, (f) => f.rss)
  row(`last request → exit, ${realLabel} (ms)`, results.real, (f) => f.exit)
  row('last request → exit, 20,000-file repo (ms)', results.large, (f) => f.exit)
  row(`${SESSION_ROUNDS}-round session: wall (ms)`, results.session, (f) => f.wall)
  row(`${SESSION_ROUNDS}-round session: peak RSS (MB)`, results.session, (f) => f.rss)
  row(`${SESSION_ROUNDS}-round session: CPU (s)`, results.session, (f) => f.cpu, seconds)
  console.log(`\n| figure (median) | ${names.join(' | ')} |\n| --- | --- | --- | --- |`)
  for (const line of rows) console.log(line)
  if (results.quality) {
    const quality = results.quality
    console.log(
      `| repository map, 20,000-file repo | no map | no map | ${quality.named} files named: ${quality.sources} sources, ${quality.ignored.length} ignored paths, ${quality.hubs.length} of 10 most-imported modules |`,
    )
  }
  console.log(`(load average ${loadStart} at start, ${loadEnd} at end)`)
}
