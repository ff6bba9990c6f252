/**
 * One side of the load bench in its own process (`load.ts` forks it): `upstream` is the scripted
 * Responses server streaming an answer frame by frame; `gateway` is the gateway over SQLite in front of
 * it. It prints its URL as one JSON line and answers `stats` messages with its CPU time and figures
 * (and `stats+memory` with its memory after GC too), so the figures are the server's alone, not the
 * load generator's.
 */
import { Server as HttpServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { writeHeapSnapshot } from 'node:v8'
import { startScriptedServer } from '@z-engine/engine/testing'
// The built gateway (`pnpm build` first), as it runs in production: no TypeScript loader in the profile.
import { startGateway } from '@z-engine/gateway'

/** About 320 characters: 20 text deltas of 16, plus the lifecycle frames, ~28 frames a stream. */
const ANSWER = 'A streamed answer of a realistic length for the load benchmark. '.repeat(5)

const [role, arg, delay] = process.argv.slice(2)
/** The gateway's own view of each request: from its handler's start to its end (ms). */
let handled: number[] = []
/**
 * Where a request's time went before the handler, per request, from the client's `x-bench-sent`
 * stamp (epoch ms, same clock): the socket accepted (first request on a connection only), the
 * `request` event, the response head written, the end written.
 */
let phases: { accepted: number[]; request: number[]; head: number[]; end: number[] } = {
  accepted: [],
  request: [],
  head: [],
  end: [],
}
const acceptedAt = new WeakMap<Socket, number>()
/** The slowest requests' timelines (epoch ms), by the client's `x-bench-id`, for the bench to match with its own. */
interface Timeline {
  port?: number | undefined
  accepted?: number | undefined
  request: number
  head?: number
  end?: number
}
let timelines = new Map<string, Timeline>()
// Kept only when the bench prints them: a soak of 20,000 requests held ~3.7 MB of timelines until the
// next reading, which the memory figure (taken with them alive) showed as heap growth of the gateway.
const KEEP_TIMELINES = process.env.BENCH_TIMELINES === '1'
const originalEmit = HttpServer.prototype.emit
HttpServer.prototype.emit = function (this: HttpServer, event: string | symbol, ...args: unknown[]) {
  if (event === 'connection') acceptedAt.set(args[0] as Socket, Date.now())
  if (event === 'request') {
    const req = args[0] as IncomingMessage
    const res = args[1] as ServerResponse
    const sent = Number(req.headers['x-bench-sent'])
    if (Number.isFinite(sent)) {
      const accepted = acceptedAt.get(req.socket)
      const id = String(req.headers['x-bench-id'] ?? '')
      const timeline: Timeline = {
        port: req.socket.remotePort,
        accepted,
        request: Date.now(),
      }
      if (KEEP_TIMELINES) timelines.set(id, timeline)
      res.once('finish', () => {
        timeline.end = Date.now()
      })
      if (accepted !== undefined) {
        acceptedAt.delete(req.socket)
        phases.accepted.push(accepted - sent)
      }
      phases.request.push(Date.now() - sent)
      const writeHead = res.writeHead
      res.writeHead = function (this: ServerResponse, ...headArgs: unknown[]) {
        phases.head.push(Date.now() - sent)
        timeline.head = Date.now()
        return (writeHead as (...args: unknown[]) => ServerResponse).apply(this, headArgs)
      } as ServerResponse['writeHead']
      res.once('finish', () => phases.end.push(Date.now() - sent))
    }
  }
  return originalEmit.apply(this, [event, ...args] as Parameters<HttpServer['emit']>)
} as HttpServer['emit']
const percentile = (values: number[], p: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? 0

async function start(): Promise<{ url: string; close: () => Promise<void> }> {
  if (role === 'upstream') {
    const server = await startScriptedServer(() => ({ blocks: [{ type: 'text', text: ANSWER }] }), {
      chunkDelayMs: Number(delay ?? 10),
    })
    return { url: server.openaiBaseUrl, close: () => server.close() }
  }
  if (role === 'gateway' && arg !== undefined && delay !== undefined) {
    const gateway = await startGateway({
      config: { upstreamUrl: arg },
      db: delay,
      log: (record) => {
        if (record.msg === 'request' && typeof record.ms === 'number') handled.push(record.ms)
      },
    })
    return { url: `${gateway.url}/v1`, close: () => gateway.close() }
  }
  throw new Error('usage: load-server.ts upstream [chunkDelayMs] | gateway UPSTREAM_URL sqlite:PATH')
}

const server = await start()
// BENCH_DIAG=1: every 100 ms (when the loop gets to it), the loop's lateness and the listening
// socket's accept queue (connections the kernel completed that the process has not accepted yet).
if (process.env.BENCH_DIAG === '1') {
  const { readFileSync } = await import('node:fs')
  const port = Number(new URL(server.url).port).toString(16).toUpperCase().padStart(4, '0')
  let last = Date.now()
  setInterval(() => {
    const now = Date.now()
    const listen = readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .find((line) => line.includes(`:${port} 00000000:0000 0A`))
    const queue = listen ? Number.parseInt(listen.trim().split(/\s+/)[4]?.split(':')[1] ?? '0', 16) : -1
    if (queue > 0 || now - last > 400)
      process.stderr.write(
        `diag ${role} ${now % 100000} late ${now - last - 100} ms, accept queue ${queue}\n`,
      )
    last = now
  }, 100).unref()
}
const memory = (): NodeJS.MemoryUsage => {
  for (let i = 0; i < 4; i++) global.gc?.()
  return process.memoryUsage()
}
// How long the event loop was held up between readings (a stall delays every stream at once).
const lag = monitorEventLoopDelay({ resolution: 10 })
lag.enable()
process.on('message', (message) => {
  // `stats` for a round's figures; `stats+memory` also collects garbage first, for the soak's memory
  // figure only: a full collection right before a measured round deoptimized ~80 of the gateway's
  // functions (V8 drops optimized code that embeds an object that died), so every round began by
  // recompiling them.
  if (message === 'stats' || message === 'stats+memory') {
    const delay = { p99: lag.percentile(99) / 1e6, max: lag.max / 1e6 }
    const handler = {
      p50: percentile(handled, 50),
      p99: percentile(handled, 99),
      max: Math.max(0, ...handled),
    }
    const spread = (values: number[]) => ({
      n: values.length,
      p50: percentile(values, 50),
      p99: percentile(values, 99),
      max: Math.max(0, ...values),
    })
    const before = {
      accepted: spread(phases.accepted),
      request: spread(phases.request),
      head: spread(phases.head),
      end: spread(phases.end),
    }
    lag.reset()
    handled = []
    phases = { accepted: [], request: [], head: [], end: [] }
    const slowest = Object.fromEntries(timelines)
    timelines = new Map()
    process.send?.({
      // With BENCH_TIMELINES=1 this includes the timelines being sent (about 170 bytes a request).
      memory: message === 'stats+memory' ? memory() : process.memoryUsage(),
      cpu: process.cpuUsage(),
      delay,
      handler,
      phases: before,
      timelines: slowest,
    })
  }
  // BENCH_HEAP_SNAPSHOTS: a heap snapshot after GC (compare two to tell a leak from a plateau).
  if (typeof message === 'object' && message !== null && 'snapshot' in message) {
    memory()
    const file = writeHeapSnapshot(String((message as { snapshot: string }).snapshot))
    process.send?.({ snapshot: file })
  }
  if (message === 'close') void server.close().then(() => process.exit(0))
})
// A bench that died (an uncaught error skips its cleanup) leaves no server behind.
process.on('disconnect', () => process.exit(0))
process.send?.({ url: server.url })
