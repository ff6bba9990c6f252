/**
 * Engine overhead per round: a real Engine (real session actor, journal on disk, policy gate, tool
 * batch, request assembly) driven by a zero-latency ScriptedClient whose every answer is one trivial
 * tool call (Read of a one-line file), 1,000 rounds in one turn. A round's wall time is the interval
 * between consecutive `toolFinished` events (model stream + record + batch + tool + journal);
 * the tool's own `durationMs` is reported beside it. Then, in a fresh process, the peak RSS and heap
 * of a 500-round session.
 *
 * Run: pnpm --filter @z-engine/engine bench (or node --conditions=@z-engine/source --import tsx bench/engine-rounds.ts)
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { registerMarkdownLoader } from '../test/markdown-loader.js'

registerMarkdownLoader()
const { Engine } = await import('../src/index.js')
const { ScriptedClient } = await import('../src/testing.js')
type ModelClient = import('../src/model/types.js').ModelClient

const mode = process.argv[2] ?? 'rounds'
const variantArg: Variant = process.argv[3] === 'stock' ? 'stock' : 'lean'
const ROUNDS = mode === 'memory' ? 500 : 1_000

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)

/**
 * `stock`: the ScriptedClient as tests use it, which keeps a deep copy of every request (O(messages)
 * per round, the mock's own cost). `lean`: the same ScriptedClient shown only the newest message
 * (no system prompt, no tools, no history), so what remains per round is the engine's.
 */
type Variant = 'stock' | 'lean'

async function session(rounds: number, variant: Variant, onRound?: () => void, onFinished?: () => void) {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'ze-bench-home-')))
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'ze-bench-proj-')))
  const file = join(project, 'one.txt')
  writeFileSync(file, 'one line\n')
  mkdirSync(join(home, 'config'))
  // Room for a long turn: no compaction, no turn budget, no repo map in the way.
  writeFileSync(
    join(home, 'config', 'settings.toml'),
    `[model]\ncontext_window = 100000000\n[agents]\nmax_turns = ${rounds + 10}\n[context]\nrepo_map = false\n`,
  )
  const scripted = new ScriptedClient(
    (_request, index) =>
      index < rounds
        ? { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: file } }] }
        : { blocks: [{ type: 'text', text: 'done' }] },
    { chunkSize: 4_096 },
  )
  const client: ModelClient =
    variant === 'stock'
      ? scripted
      : {
          provider: 'scripted',
          stream: (request, signal) =>
            scripted.stream(
              { ...request, system: [], tools: [], messages: request.messages.slice(-1) },
              signal,
            ),
        }
  const finishedAt: number[] = []
  const toolMs: number[] = []
  let done: () => void = () => {}
  const finished = new Promise<void>((resolve) => {
    done = resolve
  })
  const engine = await Engine.create({
    home,
    dataDir: join(home, 'data'),
    configDir: join(home, 'config'),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
    clientFactory: { createClient: () => ({ ok: true, client, provider: 'scripted', model: 'scripted' }) },
    onEvent: ({ event }) => {
      if (event.type === 'toolFinished') {
        finishedAt.push(performance.now())
        toolMs.push(event.durationMs)
        onRound?.()
      }
      if (event.type === 'turnFinished') {
        if (event.outcome.type !== 'done') throw new Error(`turn ended ${JSON.stringify(event.outcome)}`)
        done()
      }
    },
  })
  const opened = await engine.openSession({ projectRoot: project, mode: 'bypass', model: 'scripted:bench' })
  const started = performance.now()
  const cpuBefore = process.cpuUsage()
  opened.send({ type: 'submit', text: 'Read the file many times.' })
  await finished
  onFinished?.()
  const total = performance.now() - started
  const cpu = process.cpuUsage(cpuBefore)
  const cpuPerRound = (cpu.user + cpu.system) / rounds
  await engine.shutdown()
  rmSync(home, { recursive: true, force: true })
  rmSync(project, { recursive: true, force: true })
  if (finishedAt.length !== rounds) throw new Error(`expected ${rounds} rounds, saw ${finishedAt.length}`)
  const perRound = finishedAt.slice(1).map((at, index) => (at - finishedAt[index]!) * 1_000)
  return { total, perRound, toolMs, cpuPerRound }
}

if (mode === 'profile') {
  // For `node --cpu-prof`: one measured session and nothing else.
  const { perRound } = await session(ROUNDS, variantArg)
  console.log(`median per round ${median(perRound).toFixed(0)} µs`)
} else if (mode === 'memory') {
  let peakRss = 0
  let peakHeap = 0
  const sample = () => {
    const usage = process.memoryUsage()
    peakRss = Math.max(peakRss, usage.rss)
    peakHeap = Math.max(peakHeap, usage.heapUsed)
  }
  // With --expose-gc: the baseline after a 10-round warm-up session, and the heap still held when
  // the 500-round turn is over (before the session closes), both after a full collection.
  const gc = (globalThis as { gc?: () => void }).gc
  await session(10, variantArg)
  gc?.()
  const before = process.memoryUsage()
  sample()
  let retainedHeap = 0
  await session(ROUNDS, variantArg, sample, () => {
    gc?.()
    retainedHeap = process.memoryUsage().heapUsed
  })
  console.log(
    JSON.stringify({
      baselineRss: before.rss,
      baselineHeap: before.heapUsed,
      peakRss,
      peakHeap,
      retainedHeap,
    }),
  )
} else {
  const percentile = (values: number[], p: number) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length * p)]!
  await session(50, 'lean') // warm-up: module loading, JIT
  console.log(
    `engine rounds: ${ROUNDS} rounds of one Read call each, zero-latency ScriptedClient (load avg ${loadavg()[0]!.toFixed(1)})`,
  )
  for (const variant of ['lean', 'stock'] as const) {
    const { total, perRound, toolMs, cpuPerRound } = await session(ROUNDS, variant)
    const tenth = Math.floor(perRound.length / 10)
    console.log(
      `  [${variant}] median per round ${median(perRound).toFixed(0)} µs, p90 ${percentile(perRound, 0.9).toFixed(0)} µs; first 10% ${median(perRound.slice(0, tenth)).toFixed(0)} µs, last 10% ${median(perRound.slice(-tenth)).toFixed(0)} µs; process CPU ${cpuPerRound.toFixed(0)} µs per round; tool durationMs median ${median(toolMs)} ms; turn ${(total / 1_000).toFixed(2)} s`,
    )
  }
  for (const variant of ['lean', 'stock'] as const) {
    const child = spawnSync(
      process.execPath,
      [
        '--expose-gc',
        '--conditions=@z-engine/source',
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
        'memory',
        variant,
      ],
      { encoding: 'utf8' },
    )
    if (child.status !== 0) throw new Error(`memory run failed:\n${child.stderr}`)
    const memory = JSON.parse(child.stdout.trim().split('\n').at(-1)!)
    console.log(
      `engine memory [${variant}]: 500-round session, fresh process: peak RSS ${mb(memory.peakRss)} MB (after a warm-up session ${mb(memory.baselineRss)} MB), peak heap used ${mb(memory.peakHeap)} MB (warm baseline ${mb(memory.baselineHeap)} MB), heap held at the end of the turn ${mb(memory.retainedHeap)} MB`,
    )
  }
}
