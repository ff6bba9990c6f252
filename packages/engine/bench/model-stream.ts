/**
 * Model stream parsing benchmark: a ~1 MB streamed response per wire format, parsed by the real SDK
 * and our adapter. The bytes come from an in-memory fetch (no network, no server in the measured
 * CPU time), so the figure is the client's own cost. Also measures the first request of a fresh
 * process (SDK lazy import included) against the loopback scripted server.
 *
 * Run: pnpm --filter @z-engine/engine bench (or node --conditions=@z-engine/source --import tsx bench/model-stream.ts)
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createAnthropicClient } from '../src/model/anthropic/client.js'
import { createChatClient } from '../src/model/openai-chat/client.js'
import { createResponsesClient } from '../src/model/openai-responses/client.js'
import { resolveResponse, type ScriptedResponse } from '../src/model/scripted/script.js'
import { startScriptedServer } from '../src/model/scripted/scripted-server.js'
import { anthropicFrames } from '../src/model/scripted/wire/anthropic.js'
import { chatFrames } from '../src/model/scripted/wire/chat.js'
import { responsesFrames } from '../src/model/scripted/wire/responses.js'
import type { ModelClient, ModelRequest } from '../src/model/types.js'

const packageRoot = fileURLToPath(new URL('..', import.meta.url))

type Format = 'anthropic' | 'openai-chat' | 'openai-responses'
const FORMATS: Format[] = ['anthropic', 'openai-chat', 'openai-responses']
const ITERATIONS = 7

const request: ModelRequest = {
  model: 'bench-model',
  system: [{ text: 'bench', cacheable: true }],
  tools: [],
  messages: [{ id: 'u', role: 'user', content: [{ type: 'text', text: 'go' }] }],
  maxOutputTokens: 100_000,
}

/** Output of `chars` characters: text in 32-character deltas plus a tool call (1/16 of it) in 32-character argument deltas. */
function responseOf(chars: number): ScriptedResponse {
  const text = 'streaming tokens arrive in small pieces, '.repeat(Math.ceil(chars / 41)).slice(0, chars)
  return {
    blocks: [
      { type: 'text', text },
      {
        type: 'tool_use',
        id: 'call_1',
        name: 'Write',
        input: { path: 'big.txt', content: 'x'.repeat(Math.round(chars / 16)) },
      },
    ],
  }
}

/** The SSE bytes of a response whose wire size is about 1 MB in the given format. */
function oneMegabyte(format: Format): string {
  const sample = frames(format, responseOf(20_000)).length
  return frames(format, responseOf(Math.round((20_000 * 1_000_000) / sample)))
}

function frames(format: Format, response: ScriptedResponse): string {
  const resolved = resolveResponse(response, 1)
  const options = { model: 'bench-model', textChunkSize: 32, argsChunkSize: 32 }
  switch (format) {
    case 'anthropic':
      return anthropicFrames(resolved, 'msg_bench', options).join('')
    case 'openai-chat':
      return chatFrames(resolved, 'chatcmpl-bench', options).join('')
    case 'openai-responses':
      return responsesFrames(resolved, 'resp_bench', options).join('')
  }
}

/** A fetch that answers every request with the given SSE bytes, in 16 KB pieces like a socket would. */
function memoryFetch(body: Uint8Array): typeof fetch {
  return async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < body.length; offset += 16_384)
          controller.enqueue(body.subarray(offset, offset + 16_384))
        controller.close()
      },
    })
    return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } })
  }
}

function client(format: Format, options: { fetch?: typeof fetch; baseUrl: string }): ModelClient {
  const common = { apiKey: 'bench', retry: { maxRetries: 0 }, ...options }
  switch (format) {
    case 'anthropic':
      return createAnthropicClient(common)
    case 'openai-chat':
      return createChatClient(common)
    case 'openai-responses':
      return createResponsesClient(common)
  }
}

/** Milliseconds to import a package in a fresh plain-node process (what the built CLI pays on first use). */
function importMs(specifier: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t)`
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: packageRoot,
    encoding: 'utf8',
  })
  return Number(output.trim())
}

/** First request to the loopback server after `warm()` loaded the SDK: connection, request, first delta. */
async function firstRequestMs(): Promise<Record<Format, number>> {
  const server = await startScriptedServer(() => ({ blocks: [{ type: 'text', text: 'hi' }] }))
  const result = {} as Record<Format, number>
  // The process's first fetch initializes undici (~100 ms under load); that is Node's cost, not the SDK's.
  const undiciStart = performance.now()
  await (await fetch(`${server.url}/health`)).text()
  console.log(
    `first fetch of the process (undici init), plain fetch: ${(performance.now() - undiciStart).toFixed(1)} ms`,
  )
  for (const format of FORMATS) {
    const model = client(format, { baseUrl: format === 'anthropic' ? server.url : server.openaiBaseUrl })
    await model.warm?.()
    const start = performance.now()
    for await (const event of model.stream(request)) {
      if (event.type === 'text_delta') break
    }
    result[format] = performance.now() - start
  }
  await server.close()
  return result
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

async function main(): Promise<void> {
  for (const specifier of ['@anthropic-ai/sdk', 'openai']) {
    const runs = [importMs(specifier), importMs(specifier), importMs(specifier)]
    console.log(`SDK import in a fresh node process, ${specifier}: median ${median(runs).toFixed(0)} ms`)
  }
  const latency = await firstRequestMs()
  for (const format of FORMATS) {
    console.log(
      `first request after warm(), to first text delta over loopback, ${format}: ${latency[format].toFixed(1)} ms`,
    )
  }
  for (const format of FORMATS) {
    const bytes = new TextEncoder().encode(oneMegabyte(format))
    const model = client(format, { fetch: memoryFetch(bytes), baseUrl: 'http://bench.invalid/v1' })
    const cpu: number[] = []
    const wall: number[] = []
    let events = 0
    for (let iteration = 0; iteration < ITERATIONS + 1; iteration++) {
      const cpuStart = process.cpuUsage()
      const wallStart = performance.now()
      let count = 0
      let ended = false
      for await (const event of model.stream(request)) {
        count++
        if (event.type === 'message_end') ended = true
        if (event.type === 'error') throw new Error(event.error.message)
      }
      if (!ended) throw new Error(`${format}: no message_end`)
      const used = process.cpuUsage(cpuStart)
      // The first run warms up the JIT and the lazy SDK import; it is not counted.
      if (iteration > 0) {
        cpu.push((used.user + used.system) / 1000)
        wall.push(performance.now() - wallStart)
      }
      events = count
    }
    const megabytes = bytes.length / 1_000_000
    const cpuMs = median(cpu)
    const wallMs = median(wall)
    console.log(
      `${format}: ${megabytes.toFixed(2)} MB, ${events} events, median CPU ${cpuMs.toFixed(0)} ms, wall ${wallMs.toFixed(0)} ms, ` +
        `${Math.round(events / (cpuMs / 1000)).toLocaleString('en-US')} events per CPU-second, ${(megabytes / (cpuMs / 1000)).toFixed(1)} MB per CPU-second`,
    )
  }
}

await main()
