/**
 * The gateway under load (`pnpm --filter @z-engine/gateway bench`, issue 37): 200 concurrent clients
 * stream stored responses through the gateway on SQLite over a scripted upstream that streams each
 * answer frame by frame (~28 frames, 25 ms apart: `BENCH_FRAME_MS`). Rounds straight to the upstream
 * and through the gateway alternate (`BENCH_PAIRS`, `BENCH_REQUESTS` each), so the figures compare:
 * end-of-stream latency p50/p95/p99 and requests/s, via the gateway against direct (targets: p99 within
 * 2× and throughput ≥ 60%, the median over the pairs). Then a soak keeps the load on for
 * `BENCH_SOAK_SECONDS` (default 180; CI shortens it) and compares the gateway's RSS and heap after GC
 * at its start and end. Upstream, gateway and clients are three processes, each in its own session
 * (`BENCH_SHARED_GROUP=1`: one), as in production. Each server reports where its requests' time went
 * from the client's send (accepted, request event, head, end); `BENCH_TIMELINES=1` prints the slowest
 * requests' client and server timelines side by side, `BENCH_DIAG=1` the servers' loop lateness and
 * accept queue; `BENCH_GATEWAY_FLAGS` adds Node flags to the gateway process (e.g. V8 heap tuning);
 * `BENCH_HEAP_SNAPSHOTS=DIR` writes the gateway's heap at the soak's start and end.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 200)
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000)
/** Direct and gateway rounds alternate this many times (`BENCH_PAIRS`). */
const PAIRS = Number(process.env.BENCH_PAIRS ?? 3)
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 180)
/**
 * Requests each path serves before the first pair (`BENCH_WARMUP`): a gateway runs for hours, and its
 * optimizing compiler was still busy compiling request-path code (a fifth of the process's CPU in a
 * profile) through the first thousand requests; the measured rounds are its steady state.
 */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1500)
// An inference server's token cadence (~40 tokens/s): the upstream waits, it does not burn CPU.
const CHUNK_DELAY_MS = Number(process.env.BENCH_FRAME_MS ?? 25)
/** `BENCH_SHARED_GROUP=1` keeps the three processes in one session (one CPU share on a loaded machine). */
const SEPARATE_GROUPS = process.env.BENCH_SHARED_GROUP !== '1'

interface Server {
  child: ChildProcess
  url: string
}

function startServer(args: string[]): Promise<Server> {
  // BENCH_CPU_PROF=DIR writes the gateway's CPU profile there (to find where its time goes).
  const profile = process.env.BENCH_CPU_PROF
  const child = fork(join(import.meta.dirname, 'load-server.ts'), args, {
    execArgv: [
      '--expose-gc',
      '--import',
      'tsx',
      ...(profile && args[0] === 'gateway' ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
      ...(args[0] === 'gateway' && process.env.BENCH_GATEWAY_FLAGS
        ? process.env.BENCH_GATEWAY_FLAGS.split(' ')
        : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // Its own session, hence its own scheduler autogroup (Linux): as on separate machines, the
    // gateway does not pay for the upstream's or the clients' CPU, nor they for its.
    detached: SEPARATE_GROUPS,
  })
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, url: (message as { url: string }).url }))
    child.once('exit', (code) => reject(new Error(`load-server ${args[0]} exited with ${code}`)))
  })
}

interface Stats {
  memory: NodeJS.MemoryUsage
  cpu: NodeJS.CpuUsage
  /** The event loop's delay since the last reading (ms). */
  delay: { p99: number; max: number }
  /** The gateway's handler time per request since the last reading (ms). */
  handler?: { p50: number; p99: number; max: number }
  /** Per request, ms from the client's send to: socket accepted (new connections), `request` event, head, end. */
  phases: Record<'accepted' | 'request' | 'head' | 'end', Spread>
  /** The server's timeline of each request (epoch ms) by `x-bench-id`. */
  timelines: Record<string, ServerTimeline>
}

interface ServerTimeline {
  port?: number | undefined
  accepted?: number | undefined
  request: number
  head?: number
  end?: number
}

interface ClientTimeline {
  sent: number
  socket?: number
  connected?: number
  port?: number | undefined
  head?: number
  end?: number
  reused?: boolean
}

/** The client's timeline of each request (epoch ms) by `x-bench-id`. */
let clientTimelines = new Map<string, ClientTimeline>()
let nextId = 0

/** The slowest requests of a round, client and server timelines side by side (ms after the send). */
function slowestOf(stats: Stats, count = 4): string {
  const rows = [...clientTimelines.entries()]
    .filter(([, t]) => t.end !== undefined)
    .sort((a, b) => (b[1].end ?? 0) - b[1].sent - ((a[1].end ?? 0) - a[1].sent))
    .slice(0, count)
  clientTimelines = new Map()
  const at = (value: number | undefined, sent: number): string =>
    value === undefined ? '-' : String(value - sent)
  return rows
    .map(([id, c]) => {
      const s = stats.timelines[id]
      return `  #${id} port ${c.port}${c.reused ? ' (reused)' : ' (new)'}: client socket ${at(c.socket, c.sent)} connected ${at(c.connected, c.sent)} head ${at(c.head, c.sent)} end ${at(c.end, c.sent)} | server port ${s?.port} accepted ${at(s?.accepted, c.sent)} request ${at(s?.request, c.sent)} head ${at(s?.head, c.sent)} end ${at(s?.end, c.sent)}`
    })
    .join('\n')
}

interface Spread {
  n: number
  p50: number
  p99: number
  max: number
}

/** Where the server's requests spent their time, from the client's send (same clock). */
function phasesOf(stats: Stats): string {
  const one = (name: string, spread: Spread): string =>
    `${name} p50 ${ms(spread.p50)} p99 ${ms(spread.p99)} max ${ms(spread.max)}`
  const { accepted, request, head, end } = stats.phases
  return `from send: ${accepted.n > 0 ? `${one('accepted', accepted)} (${accepted.n} connections), ` : ''}${one('request event', request)}, ${one('head written', head)}, ${one('end written', end)}`
}

/**
 * The server's CPU time so far and its figures since the last reading (its own process: not the load
 * generator's); `memory` after GC only when asked (a collection costs the next round recompiled code).
 */
function statsOf(server: Server, memory = false): Promise<Stats> {
  return new Promise((resolve) => {
    server.child.once('message', (message) => resolve(message as Stats))
    server.child.send(memory ? 'stats+memory' : 'stats')
  })
}

/**
 * `BENCH_HEAP_SNAPSHOTS=DIR`: the gateway writes a heap snapshot (after GC) there, at the soak's start
 * and end; load both in Chrome's DevTools (Comparison view) to tell a leak from a plateau.
 */
async function heapSnapshot(server: Server, name: string): Promise<void> {
  const dir = process.env.BENCH_HEAP_SNAPSHOTS
  if (!dir) return
  const file = await new Promise<string>((resolve) => {
    server.child.once('message', (message) => resolve((message as { snapshot: string }).snapshot))
    server.child.send({ snapshot: join(dir, `gateway-${name}.heapsnapshot`) })
  })
  console.log(`heap snapshot: ${file}`)
}

/** CPU milliseconds (user + system) per request between two readings. */
const cpuPer = (before: Stats, after: Stats, requests: number): string =>
  `${((after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / 1000 / requests).toFixed(2)} ms`

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.child.once('exit', () => resolve())
    server.child.send('close')
  })
}

/** Time to the response head of each request, new connections and resent requests (reset by each round). */
let firstBytes: number[] = []
let connections = 0
let resent = 0
/** Time to the TCP connection of each request that opened one. */
let connects: number[] = []
const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS })
const BODY = JSON.stringify({ model: 'm', input: 'hi', stream: true })

/** One streamed request to its end; resolves with the milliseconds it took. */
function stream(
  baseUrl: string,
  started = performance.now(),
  sent = Date.now(),
  id = String(nextId++),
): Promise<number> {
  const timeline: ClientTimeline = clientTimelines.get(id) ?? { sent }
  clientTimelines.set(id, timeline)
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}/responses`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'x-bench-sent': String(sent), 'x-bench-id': id },
      },
      (res) => {
        timeline.head = Date.now()
        firstBytes.push(performance.now() - started)
        let tail = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          tail = (tail + chunk).slice(-4096)
        })
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}`))
          else if (!tail.includes('response.completed'))
            reject(new Error(`no response.completed: ${tail.slice(-300)}`))
          else {
            timeline.end = Date.now()
            resolve(performance.now() - started)
          }
        })
        res.on('error', reject)
      },
    )
    req.on('error', (error: NodeJS.ErrnoException) => {
      // A kept-alive socket the server closed as this request went out: send it again, timed from the first try.
      if (req.reusedSocket && error.code === 'ECONNRESET') {
        resent += 1
        stream(baseUrl, started, sent, id).then(resolve, reject)
      } else reject(error)
    })
    req.once('socket', (socket) => {
      timeline.socket = Date.now()
      timeline.reused = req.reusedSocket
      if (socket.localPort !== undefined) timeline.port = socket.localPort
      if (req.reusedSocket) return
      connections += 1
      socket.once('connect', () => {
        timeline.connected = Date.now()
        timeline.port = socket.localPort
        connects.push(performance.now() - started)
      })
    })
    req.end(BODY)
  })
}

interface Round {
  latencies: number[]
  seconds: number
  /** The load generator's own CPU per request (ms). */
  clientCpu: number
}

/** `CLIENTS` workers stream until `count` requests are done (or `until` passes). */
async function load(baseUrl: string, count: number, until = Number.POSITIVE_INFINITY): Promise<Round> {
  const latencies: number[] = []
  firstBytes = []
  connects = []
  connections = 0
  resent = 0
  clientLag.reset()
  clientTimelines = new Map()
  let next = 0
  const started = performance.now()
  const cpu = process.cpuUsage()
  const worker = async (): Promise<void> => {
    while (next < count && performance.now() < until) {
      next += 1
      latencies.push(await stream(baseUrl))
    }
  }
  await Promise.all(Array.from({ length: CLIENTS }, worker))
  const used = process.cpuUsage(cpu)
  return {
    latencies,
    seconds: (performance.now() - started) / 1000,
    clientCpu: (used.user + used.system) / 1000 / Math.max(1, latencies.length),
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}

const ms = (value: number): string => `${value.toFixed(0)} ms`
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`
const load1 = (): string => loadavg()[0]?.toFixed(1) ?? '?'

/** The load generator's own event loop: a late client inflates every latency it measures. */
const clientLag = monitorEventLoopDelay({ resolution: 10 })
clientLag.enable()

function describe(label: string, round: Round): string {
  const { latencies, seconds } = round
  const lag = `client event loop delay p99 ${ms(clientLag.percentile(99) / 1e6)} max ${ms(clientLag.max / 1e6)}`
  clientLag.reset()
  const head = `head p50 ${ms(percentile(firstBytes, 50))} p99 ${ms(percentile(firstBytes, 99))} max ${ms(Math.max(...firstBytes))}`
  firstBytes = []
  return `${label}: ${lag}, client CPU ${round.clientCpu.toFixed(2)} ms/request; ${connections} new connections (connected p99 ${ms(percentile(connects, 99))} max ${ms(Math.max(0, ...connects))}), ${resent} resent; ${head}; end p50 ${ms(percentile(latencies, 50))} p95 ${ms(percentile(latencies, 95))} p99 ${ms(percentile(latencies, 99))} max ${ms(Math.max(...latencies))}; ${(latencies.length / seconds).toFixed(0)} requests/s`
}

// BENCH_DB_DIR puts the database elsewhere (a tmpfs shows what the disk's fsyncs cost).
const dir = mkdtempSync(join(process.env.BENCH_DB_DIR ?? tmpdir(), 'gateway-load-'))
const upstream = await startServer(['upstream', String(CHUNK_DELAY_MS)])
const gateway = await startServer(['gateway', upstream.url, `sqlite:${join(dir, 'load.db')}`])
try {
  console.log(
    `load: ${CLIENTS} concurrent streaming clients, ${PAIRS} pairs of rounds of ${REQUESTS} stored requests each way, upstream ${CHUNK_DELAY_MS} ms between frames, SQLite, ${SEPARATE_GROUPS ? 'each process in its own session (scheduler autogroup)' : 'the three processes in one session'}; load avg ${load1()} on ${(await import('node:os')).cpus().length} cores`,
  )
  // Warm each path right before its round (JIT, the database file, and 200 open connections: Node
  // closes a connection idle for 5 s, and a server on Node ≥ 20 accepts one connection per event-loop
  // iteration, so a round that starts by reconnecting 200 clients measures that burst, not streaming).
  // Both rounds start alike; BENCH_COLD=1 skips the warm-ups (and BENCH_WARMUP) to see the burst instead.
  const warm = process.env.BENCH_COLD !== '1'
  // On a shared machine the load moves within seconds: direct and gateway rounds alternate, and each
  // pair's ratios are compared (their median is the result), not one direct round against one later
  // gateway round.
  const ratios: Array<{ p99: number; throughput: number }> = []
  if (warm && WARMUP > 0) {
    await load(upstream.url, WARMUP)
    await load(gateway.url, WARMUP)
    console.log(`load: ${WARMUP} requests each way to warm up; load avg ${load1()}`)
  }
  for (let pair = 1; pair <= PAIRS; pair++) {
    if (warm) await load(upstream.url, CLIENTS)
    const upstreamBefore = await statsOf(upstream)
    const direct = await load(upstream.url, REQUESTS)
    const upstreamAfter = await statsOf(upstream)
    console.log(
      `${describe(`load ${pair}: direct to the upstream`, direct)}; upstream CPU ${cpuPer(upstreamBefore, upstreamAfter, REQUESTS)}/request, event loop delay p99 ${ms(upstreamAfter.delay.p99)} max ${ms(upstreamAfter.delay.max)}; upstream ${phasesOf(upstreamAfter)}`,
    )
    if (process.env.BENCH_TIMELINES === '1') console.log(slowestOf(upstreamAfter))
    if (warm) await load(gateway.url, CLIENTS)
    const gatewayBefore = await statsOf(gateway)
    const upstreamBeforeVia = await statsOf(upstream)
    const via = await load(gateway.url, REQUESTS)
    const gatewayAfter = await statsOf(gateway)
    const upstreamAfterVia = await statsOf(upstream)
    console.log(
      `${describe(`load ${pair}: through the gateway   `, via)}; gateway CPU ${cpuPer(gatewayBefore, gatewayAfter, REQUESTS)}/request, event loop delay p99 ${ms(gatewayAfter.delay.p99)} max ${ms(gatewayAfter.delay.max)}, its handler p50 ${ms(gatewayAfter.handler?.p50 ?? 0)} p99 ${ms(gatewayAfter.handler?.p99 ?? 0)} max ${ms(gatewayAfter.handler?.max ?? 0)}; gateway ${phasesOf(gatewayAfter)}; upstream CPU ${cpuPer(upstreamBeforeVia, upstreamAfterVia, REQUESTS)}/request`,
    )
    if (process.env.BENCH_TIMELINES === '1') console.log(slowestOf(gatewayAfter))
    const p99 = percentile(via.latencies, 99) / percentile(direct.latencies, 99)
    const throughput = via.latencies.length / via.seconds / (direct.latencies.length / direct.seconds)
    ratios.push({ p99, throughput })
    console.log(
      `load ${pair}: gateway p99 ${p99.toFixed(2)}× the upstream's, throughput ${(throughput * 100).toFixed(0)}% of the upstream's; load avg ${load1()}`,
    )
  }
  const p99 = percentile(
    ratios.map((ratio) => ratio.p99),
    50,
  )
  const throughput = percentile(
    ratios.map((ratio) => ratio.throughput),
    50,
  )
  console.log(
    `load: median of ${PAIRS} pairs — gateway p99 ${p99.toFixed(2)}× the upstream's (target ≤ 2) — ${p99 <= 2 ? 'met' : 'NOT met'}; throughput ${(throughput * 100).toFixed(0)}% of the upstream's (target ≥ 60%) — ${throughput >= 0.6 ? 'met' : 'NOT met'}; load avg ${load1()}`,
  )

  const before = (await statsOf(gateway, true)).memory
  await heapSnapshot(gateway, 'soak-start')
  const soak = await load(gateway.url, Number.POSITIVE_INFINITY, performance.now() + SOAK_SECONDS * 1000)
  const after = (await statsOf(gateway, true)).memory
  await heapSnapshot(gateway, 'soak-end')
  console.log(
    describe(`soak: ${SOAK_SECONDS} s through the gateway, ${soak.latencies.length} requests`, soak),
  )
  console.log(
    `soak: gateway after GC — RSS ${mb(before.rss)} → ${mb(after.rss)}, heap ${mb(before.heapUsed)} → ${mb(after.heapUsed)}, external ${mb(before.external)} → ${mb(after.external)}; load avg ${load1()}`,
  )
} finally {
  agent.destroy()
  await stop(gateway)
  await stop(upstream)
  rmSync(dir, { recursive: true, force: true })
}
