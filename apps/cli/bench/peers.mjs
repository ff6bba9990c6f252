#!/usr/bin/env node
// Issue 17's comparison: z-engine, Claude Code and Codex doing the same fix-the-bug task (read
// add.js, fix `a - b`, answer) against the same local scripted server, in a 3-file git repository and
// in a copy of this repository's tracked tree. Per CLI and case, median of BENCH_RUNS (default 5)
// runs, alternating CLIs run by run so load changes hit them alike: spawn → first model request,
// wall, CPU (user+sys of the process and every child it waited for) and peak RSS of the largest
// process (/usr/bin/time). The peers are not dependencies: install them in a folder of your choice
// (`npm i @anthropic-ai/claude-code @openai/codex` in a temp dir) and name it with
// BENCH_PEERS=<that dir>; a peer not found there is skipped. Claude Code talks Anthropic Messages
// (ANTHROPIC_BASE_URL), Codex the Responses API (a custom provider in a temp CODEX_HOME); each gets
// its own tools' calls: Read/Edit for z-engine and Claude Code, exec_command `cat`/`sed` for Codex,
// which has no file tools. Run `pnpm build` first. BENCH_CASES=tiny,real picks the cases.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
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
  PROMPT,
  realisticRepo,
  scratchDir,
  startScriptedServer,
  timedRun,
  tinyRepo,
} from './harness.mjs'

const [bin] = cliBins()
const runs = benchRuns(5)
const cases = benchCases('tiny,real')
const peersDir = process.env.BENCH_PEERS
const root = scratchDir('peers')
const cleanups = []

// What the scripted model says: by wire format (Anthropic for z-engine and Claude Code, Responses
// for Codex) and by how many tool results the conversation already holds.
let run = { main: [], all: [], project: '', mapInFirst: false }
const server = await startScriptedServer((request) => {
  const now = performance.now()
  run.all.push(now)
  const body = request.body
  const tools = Array.isArray(body.tools) ? body.tools : []
  // Side requests (titles, topic checks, quota probes) carry no tools: a short answer.
  if (tools.length === 0) return { blocks: [{ type: 'text', text: 'ok' }] }
  if (run.main.length === 0) run.mapInFirst = JSON.stringify(body.system ?? '').includes('<repository-map>')
  run.main.push(now)
  if (request.format === 'openai-responses') {
    const input = Array.isArray(body.input) ? body.input : []
    const done = input.filter((item) => item?.type === 'function_call_output').length
    if (done === 0)
      return { blocks: [{ type: 'tool_use', name: 'exec_command', input: { cmd: 'cat add.js' } }] }
    if (done === 1)
      return {
        blocks: [
          { type: 'tool_use', name: 'exec_command', input: { cmd: "sed -i 's/a - b/a + b/' add.js" } },
        ],
      }
    return { blocks: [{ type: 'text', text: 'Fixed: add now adds.' }] }
  }
  return fixTheBugAnswer(Array.isArray(body.messages) ? body.messages : [], join(run.project, 'add.js'))
})

const home = join(root, 'home')
mkdirSync(home)
const baseEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8' }

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
const claude = peersDir && join(peersDir, 'node_modules/.bin/claude')
if (claude && existsSync(claude))
  clis.push({
    name: 'Claude Code',
    version: readVersion('@anthropic-ai/claude-code'),
    command: () => ({
      file: claude,
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
else console.log(`Claude Code: not found${peersDir ? ` in ${peersDir}` : ''} (set BENCH_PEERS); skipped`)
const codex = peersDir && join(peersDir, 'node_modules/.bin/codex')
if (codex && existsSync(codex)) {
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
    version: readVersion('@openai/codex'),
    command: () => ({
      file: codex,
      args: ['exec', '-s', 'workspace-write', '--skip-git-repo-check', PROMPT],
      env: { ...baseEnv, CODEX_HOME: codexHome, SCRIPTED_API_KEY: 'bench' },
    }),
  })
} else console.log(`Codex: not found${peersDir ? ` in ${peersDir}` : ''} (set BENCH_PEERS); skipped`)

function readVersion(name) {
  try {
    return JSON.parse(readFileSync(join(peersDir, 'node_modules', name, 'package.json'), 'utf8')).version
  } catch {
    return undefined
  }
}

/** One task run of `cli` in `project`; its figures. */
async function runTask(cli, project, data) {
  writeFileSync(join(project, 'add.js'), BUG)
  run = { main: [], all: [], project, mapInFirst: false }
  const { file, args, env } = cli.command(data)
  const { code, stdout, stderr, started, ended, wall, cpu, rss } = await timedRun(file, args, {
    cwd: project,
    env,
  })
  const fixed = readFileSync(join(project, 'add.js'), 'utf8').includes('a + b')
  if (code !== 0 || !fixed || run.main.length !== 3)
    throw new Error(
      `${cli.name}: task failed (exit ${code}, ${run.main.length} requests, fixed ${fixed}):\n${stdout.slice(-1500)}\n${stderr.slice(-1500)}`,
    )
  return {
    firstRequest: run.main[0] - started,
    firstAny: run.all[0] - started,
    wall,
    lastRequestToExit: ended - run.main[2],
    cpu,
    rss,
    sideRequests: run.all.length - run.main.length,
    mapInFirst: run.mapInFirst === true,
  }
}

function report(label, cli, samples) {
  const of = (key) => median(samples.map((sample) => sample[key])).toFixed(0)
  console.log(
    `${label}, ${cli.name}${cli.version ? ` ${cli.version}` : ''} (median of ${samples.length}): spawn → first request ${of('firstRequest')} ms` +
      ` (min ${Math.min(...samples.map((s) => s.firstRequest)).toFixed(0)}), wall ${of('wall')} ms` +
      ` (last answer → exit ${of('lastRequestToExit')} ms), CPU ${of('cpu')} ms, peak RSS ${of('rss')} MB` +
      `${samples[0].sideRequests ? `, ${samples[0].sideRequests} side requests` : ''}` +
      `${cli.name === 'z-engine' ? `, repository map in ${samples.filter((s) => s.mapInFirst).length}/${samples.length} first requests` : ''}`,
  )
}

async function compare(label, project) {
  const samples = new Map(clis.map((cli) => [cli, []]))
  // Warm-up, not counted. z-engine's until its first request holds the repository map (at most 8
  // sessions): a project seen before, its outlines all parsed (each session saves what it parsed).
  for (const cli of clis)
    for (let session = 0; session < (cli.name === 'z-engine' ? 8 : 1); session++)
      if ((await runTask(cli, project, join(root, `data-${cli.name}`))).mapInFirst) break
  for (let index = 0; index < runs; index++)
    for (const cli of clis) samples.get(cli).push(await runTask(cli, project, join(root, `data-${cli.name}`)))
  for (const cli of clis) report(label, cli, samples.get(cli))
}

try {
  console.log(`load average at start: ${loadAverage()}`)
  if (cases.has('tiny')) await compare('fix-the-bug, 3-file repository', tinyRepo(root))
  if (cases.has('real')) await compare('fix-the-bug, copy of this repository', realisticRepo(root).dir)
  console.log(`load average at end: ${loadAverage()}`)
} finally {
  await server.close()
  rmSync(root, { recursive: true, force: true })
  for (const cleanup of cleanups) cleanup()
}
