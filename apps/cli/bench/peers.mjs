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
import { execFileSync, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { homedir, loadavg, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

const here = import.meta.dirname
const repoRoot = resolve(here, '../../..')
const bin = resolve(process.env.BENCH_CLI ?? resolve(here, '../dist/bin.js'))
const testing = resolve(repoRoot, 'packages/engine/dist/testing.js')
if (!existsSync(bin) || !existsSync(testing)) {
  console.error('Build first: pnpm build (needs apps/cli/dist and packages/engine/dist).')
  process.exit(1)
}
const { startScriptedServer } = await import(testing)
const runs = Number(process.env.BENCH_RUNS ?? 5)
const cases = new Set((process.env.BENCH_CASES ?? 'tiny,real').split(','))
const peersDir = process.env.BENCH_PEERS
const root = mkdtempSync(join(tmpdir(), 'z-bench-peers-'))
const cleanups = []
const BUG = 'export function add(a, b) {\n  return a - b\n}\n'

const git = (cwd, ...args) => execFileSync('git', args, { cwd, stdio: 'ignore' })
function commitAll(cwd) {
  git(cwd, 'init', '-q')
  git(cwd, 'add', '-A')
  git(cwd, '-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-qm', 'init')
}
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
      // Tracked but deleted in the work tree.
    }
  }
  writeFileSync(join(dir, 'add.js'), BUG)
  commitAll(dir)
  return dir
}

// What the scripted model says: by wire format (Anthropic for z-engine and Claude Code, Responses
// for Codex) and by how many tool results the conversation already holds.
let run = { main: [], all: [], project: '' }
const server = await startScriptedServer((request) => {
  const now = performance.now()
  run.all.push(now)
  const body = request.body
  const tools = Array.isArray(body.tools) ? body.tools : []
  // Side requests (titles, topic checks, quota probes) carry no tools: a short answer.
  if (tools.length === 0) return { blocks: [{ type: 'text', text: 'ok' }] }
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
  const messages = Array.isArray(body.messages) ? body.messages : []
  const round = messages.filter((message) => message.role === 'assistant').length
  const file = join(run.project, 'add.js')
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
})

const PROMPT = 'add.js has a bug: fix it'
const home = join(root, 'home')
mkdirSync(home)
const baseEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8' }

/** The CLIs to compare: how each is started against the scripted server. */
const clis = [
  {
    name: 'z-engine',
    command: (data) => ({
      file: process.execPath,
      args: [
        bin,
        'exec',
        '--model',
        'anthropic/claude-sonnet-4-5',
        '--permission-mode',
        'acceptEdits',
        '--output-format',
        'json',
        PROMPT,
      ],
      env: {
        ...baseEnv,
        XDG_DATA_HOME: data,
        XDG_CONFIG_HOME: join(root, 'config'),
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'bench',
      },
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
  run = { main: [], all: [], project }
  const { file, args, env } = cli.command(data)
  const started = performance.now()
  const child = spawn('/usr/bin/time', ['-f', '%U %S %M', file, ...args], {
    cwd: project,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
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
  const fixed = readFileSync(join(project, 'add.js'), 'utf8').includes('a + b')
  if (code !== 0 || !fixed || run.main.length !== 3)
    throw new Error(
      `${cli.name}: task failed (exit ${code}, ${run.main.length} requests, fixed ${fixed}):\n${stdout.slice(-1500)}\n${stderr.slice(-1500)}`,
    )
  const [user, sys, rssKb] = stderr.trim().split('\n').at(-1).split(' ').map(Number)
  return {
    firstRequest: run.main[0] - started,
    firstAny: run.all[0] - started,
    wall,
    lastRequestToExit: performance.now() - run.main[2],
    cpu: (user + sys) * 1000,
    rss: rssKb / 1024,
    sideRequests: run.all.length - run.main.length,
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
function report(label, cli, samples) {
  const of = (key) => median(samples.map((sample) => sample[key])).toFixed(0)
  console.log(
    `${label}, ${cli.name}${cli.version ? ` ${cli.version}` : ''} (median of ${samples.length}): spawn → first request ${of('firstRequest')} ms` +
      ` (min ${Math.min(...samples.map((s) => s.firstRequest)).toFixed(0)}), wall ${of('wall')} ms` +
      ` (last answer → exit ${of('lastRequestToExit')} ms), CPU ${of('cpu')} ms, peak RSS ${of('rss')} MB` +
      `${samples[0].sideRequests ? `, ${samples[0].sideRequests} side requests` : ''}`,
  )
}

async function compare(label, project) {
  const samples = new Map(clis.map((cli) => [cli, []]))
  for (const cli of clis) await runTask(cli, project, join(root, `data-${cli.name}`)) // warm-up, not counted
  for (let index = 0; index < runs; index++)
    for (const cli of clis) samples.get(cli).push(await runTask(cli, project, join(root, `data-${cli.name}`)))
  for (const cli of clis) report(label, cli, samples.get(cli))
}

try {
  console.log(
    `load average at start: ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
  )
  if (cases.has('tiny')) await compare('fix-the-bug, 3-file repository', tinyRepo())
  if (cases.has('real')) await compare('fix-the-bug, copy of this repository', realisticRepo())
  console.log(
    `load average at end: ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
  )
} finally {
  await server.close()
  rmSync(root, { recursive: true, force: true })
  for (const cleanup of cleanups) cleanup()
}
