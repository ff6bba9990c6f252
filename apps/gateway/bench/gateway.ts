/**
 * Gateway benchmarks (`pnpm --filter @z-engine/gateway bench`): overhead per request over a
 * zero-latency upstream (p50/p99), requests/s with 50 concurrent streaming clients, and memory per
 * open stream — on SQLite and on Postgres (a private cluster, as the tests start it).
 * The scripted upstream runs in the same process; the memory figure includes its side of each stream.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startScriptedServer } from '@z-engine/engine/testing'
import { startGateway } from '../src/gateway.js'
import { startPostgres } from '../test/postgres-cluster.js'

const SEQUENTIAL = 300
const CONCURRENCY = 50
const STREAMED = 1000
const OPEN_STREAMS = 200

const answer = {
  blocks: [{ type: 'text' as const, text: 'A short answer of about sixty characters for the benchmark.' }],
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}

async function post(url: string, body: object): Promise<number> {
  const started = performance.now()
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  await response.arrayBuffer()
  if (!response.ok) throw new Error(`HTTP ${response.status}`)
  return performance.now() - started
}

async function run(label: string, db: string): Promise<void> {
  const upstream = await startScriptedServer(() => answer)
  const slow = await startScriptedServer(() => answer, { chunkDelayMs: 60_000 })
  const gateway = await startGateway({ config: { upstreamUrl: upstream.openaiBaseUrl }, db, log: () => {} })
  const held = await startGateway({ config: { upstreamUrl: slow.openaiBaseUrl }, db, log: () => {} })
  try {
    const body = { model: 'm', input: 'hi' }
    for (let i = 0; i < 30; i++) {
      await post(`${upstream.url}/v1/responses`, body)
      await post(`${gateway.url}/v1/responses`, body)
    }
    const direct: number[] = []
    const via: number[] = []
    for (let i = 0; i < SEQUENTIAL; i++) {
      direct.push(await post(`${upstream.url}/v1/responses`, body))
      via.push(await post(`${gateway.url}/v1/responses`, body))
    }
    console.log(
      `${label}: stored JSON request, ${SEQUENTIAL} sequential — direct p50 ${percentile(direct, 50).toFixed(2)} ms p99 ${percentile(direct, 99).toFixed(2)} ms; via gateway p50 ${percentile(via, 50).toFixed(2)} ms p99 ${percentile(via, 99).toFixed(2)} ms; overhead p50 ${(percentile(via, 50) - percentile(direct, 50)).toFixed(2)} ms p99 ${(percentile(via, 99) - percentile(direct, 99)).toFixed(2)} ms`,
    )

    let next = 0
    const started = performance.now()
    const worker = async (): Promise<void> => {
      while (next < STREAMED) {
        next += 1
        await post(`${gateway.url}/v1/responses`, { ...body, stream: true })
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, worker))
    const seconds = (performance.now() - started) / 1000
    console.log(
      `${label}: ${STREAMED} stored streamed requests from ${CONCURRENCY} concurrent clients — ${(STREAMED / seconds).toFixed(0)} requests/s`,
    )

    const heap = (): number => {
      global.gc?.()
      const usage = process.memoryUsage()
      return usage.heapUsed + usage.external
    }
    const before = heap()
    const controllers = Array.from({ length: OPEN_STREAMS }, () => new AbortController())
    const opened = await Promise.all(
      controllers.map(async (controller) => {
        const response = await fetch(`${held.url}/v1/responses`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...body, stream: true }),
          signal: controller.signal,
        })
        const reader = response.body?.getReader()
        await reader?.read()
        return reader
      }),
    )
    const during = heap()
    console.log(
      `${label}: ${OPEN_STREAMS} open streams — ${((during - before) / OPEN_STREAMS / 1024).toFixed(1)} KiB heap+external per stream after GC (gateway, client and upstream sides, one process)`,
    )
    for (const controller of controllers) controller.abort()
    await Promise.all(opened.map((reader) => reader?.cancel().catch(() => {})))
  } finally {
    await held.close().catch(() => {})
    await gateway.close().catch(() => {})
    await upstream.close()
    await slow.close()
  }
}

const dir = mkdtempSync(join(tmpdir(), 'gateway-bench-'))
try {
  await run('sqlite', `sqlite:${join(dir, 'bench.db')}`)
  const cluster = await startPostgres()
  try {
    await run('postgres', await cluster.createDatabase())
  } finally {
    await cluster.stop()
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
