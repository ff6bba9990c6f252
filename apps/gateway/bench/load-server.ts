/**
 * One side of the load bench in its own process (`load.ts` forks it): `upstream` is the scripted
 * Responses server streaming an answer frame by frame; `gateway` is the gateway over SQLite in front of
 * it. It prints its URL as one JSON line and answers `memory` messages with its usage after GC, so the
 * figures are the server's alone, not the load generator's.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { startScriptedServer } from '@z-engine/engine/testing'
// The built gateway (`pnpm build` first), as it runs in production: no TypeScript loader in the profile.
import { startGateway } from '@z-engine/gateway'

/** About 320 characters: 20 text deltas of 16, plus the lifecycle frames, ~28 frames a stream. */
const ANSWER = 'A streamed answer of a realistic length for the load benchmark. '.repeat(5)

const [role, arg, delay] = process.argv.slice(2)
/** The gateway's own view of each request: from its handler's start to its end (ms). */
let handled: number[] = []
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
const memory = (): NodeJS.MemoryUsage => {
  for (let i = 0; i < 4; i++) global.gc?.()
  return process.memoryUsage()
}
// How long the event loop was held up between readings (a stall delays every stream at once).
const lag = monitorEventLoopDelay({ resolution: 10 })
lag.enable()
process.on('message', (message) => {
  if (message === 'stats') {
    const delay = { p99: lag.percentile(99) / 1e6, max: lag.max / 1e6 }
    const handler = {
      p50: percentile(handled, 50),
      p99: percentile(handled, 99),
      max: Math.max(0, ...handled),
    }
    lag.reset()
    handled = []
    process.send?.({ memory: memory(), cpu: process.cpuUsage(), delay, handler })
  }
  if (message === 'close') void server.close().then(() => process.exit(0))
})
// A bench that died (an uncaught error skips its cleanup) leaves no server behind.
process.on('disconnect', () => process.exit(0))
process.send?.({ url: server.url })
