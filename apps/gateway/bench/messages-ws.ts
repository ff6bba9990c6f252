/**
 * Benchmarks of the Messages API and WebSocket sessions (`pnpm --filter @z-engine/gateway bench`):
 * overhead per Messages request over a zero-latency scripted Responses upstream (p50/p99, JSON and
 * streamed), and memory per open WebSocket session holding one retained response. Stateless (no
 * storage in the Messages path); the WebSocket sessions run `store: false`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startScriptedServer } from '@z-engine/engine/testing'
import WebSocket from 'ws'
import { startGateway } from '../src/gateway.js'

const SEQUENTIAL = 300
const SESSIONS = 500

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

const heap = async (): Promise<number> => {
  for (let i = 0; i < 4; i++) {
    global.gc?.()
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const usage = process.memoryUsage()
  return usage.heapUsed + usage.external
}

const dir = mkdtempSync(join(tmpdir(), 'gateway-bench-'))
const upstream = await startScriptedServer(() => answer)
const gateway = await startGateway({
  config: { upstreamUrl: upstream.openaiBaseUrl },
  db: `sqlite:${join(dir, 'bench.db')}`,
  log: () => {},
})
try {
  const direct = { model: 'm', input: 'hi', store: false }
  const message = { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }
  for (let i = 0; i < 30; i++) {
    await post(`${upstream.url}/v1/responses`, direct)
    await post(`${gateway.url}/v1/messages`, message)
    await post(`${gateway.url}/v1/messages`, { ...message, stream: true })
  }
  for (const streamed of [false, true]) {
    const plain: number[] = []
    const via: number[] = []
    for (let i = 0; i < SEQUENTIAL; i++) {
      plain.push(await post(`${upstream.url}/v1/responses`, { ...direct, stream: streamed }))
      via.push(await post(`${gateway.url}/v1/messages`, { ...message, stream: streamed }))
    }
    console.log(
      `messages (${streamed ? 'SSE' : 'JSON'}), ${SEQUENTIAL} sequential — upstream direct p50 ${percentile(plain, 50).toFixed(2)} ms p99 ${percentile(plain, 99).toFixed(2)} ms; via /v1/messages p50 ${percentile(via, 50).toFixed(2)} ms p99 ${percentile(via, 99).toFixed(2)} ms; overhead p50 ${(percentile(via, 50) - percentile(plain, 50)).toFixed(2)} ms p99 ${(percentile(via, 99) - percentile(plain, 99)).toFixed(2)} ms`,
    )
  }

  const before = await heap()
  const sockets = await Promise.all(
    Array.from({ length: SESSIONS }, async () => {
      const socket = new WebSocket(`${gateway.url.replace('http', 'ws')}/v1/responses`)
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve())
        socket.once('error', reject)
      })
      const done = new Promise<void>((resolve) =>
        socket.on('message', (data) => {
          if (String(data).includes('"type":"response.completed"')) resolve()
        }),
      )
      socket.send(JSON.stringify({ type: 'response.create', model: 'm', input: 'hi', store: false }))
      await done
      return socket
    }),
  )
  const during = await heap()
  console.log(
    `websocket: ${SESSIONS} sessions held open, each retaining one response — ${((during - before) / SESSIONS / 1024).toFixed(1)} KiB heap+external per session after GC (gateway and client sides, one process)`,
  )
  await Promise.all(
    sockets.map((socket) => {
      const closed = new Promise((resolve) => socket.once('close', resolve))
      socket.close()
      return closed
    }),
  )
  await new Promise((resolve) => setTimeout(resolve, 200))
  const after = await heap()
  console.log(
    `websocket: the same ${SESSIONS} sessions closed — ${((during - after) / SESSIONS / 1024).toFixed(1)} KiB per session released`,
  )
} finally {
  await gateway.close()
  await upstream.close()
  rmSync(dir, { recursive: true, force: true })
}
