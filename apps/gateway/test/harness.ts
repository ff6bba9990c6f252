/** A gateway on a temp SQLite file in front of the scripted wire server, and an official OpenAI client. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type ScriptedServer,
  type ScriptedServerOptions,
  type ServerScript,
  startScriptedServer,
} from '@z-engine/engine/testing'
import OpenAI from 'openai'
import { type RunningGateway, type StartGatewayOptions, startGateway } from '../src/gateway.js'

/** The running stack of one test. */
export interface Stack {
  upstream: ScriptedServer
  gateway: RunningGateway
  client: OpenAI
  logs: Array<Record<string, unknown>>
  db: string
  /** Stops the gateway and starts a new one on the same database (a restart). */
  restart(): Promise<void>
  close(): Promise<void>
}

/** Options of {@link startStack}. */
export interface StackOptions {
  upstream?: ScriptedServerOptions
  config?: Partial<StartGatewayOptions['config']>
  /** A database URL (default: a new SQLite file). */
  db?: string
  /** Storage tuning (busy timeout, pool size). */
  storage?: StartGatewayOptions['storage']
  apiKey?: string
}

/** Starts the scripted upstream and a gateway in front of it. */
export async function startStack(script: ServerScript, options: StackOptions = {}): Promise<Stack> {
  const upstream = await startScriptedServer(script, options.upstream)
  const dir = mkdtempSync(join(tmpdir(), 'gateway-test-'))
  const db = options.db ?? `sqlite:${join(dir, 'gateway.db')}`
  const logs: Array<Record<string, unknown>> = []
  const start = (): Promise<RunningGateway> =>
    startGateway({
      config: {
        upstreamUrl: upstream.openaiBaseUrl,
        ...options.config,
        retry: { baseDelayMs: 1, maxDelayMs: 5, ...options.config?.retry },
        drainTimeoutMs: options.config?.drainTimeoutMs ?? 2000,
      },
      db,
      ...(options.storage ? { storage: options.storage } : {}),
      log: (record) => logs.push(record),
    })
  const stack: Stack = {
    upstream,
    gateway: await start(),
    client: undefined as unknown as OpenAI,
    logs,
    db,
    async restart() {
      await stack.gateway.close()
      stack.gateway = await start()
      stack.client = clientFor(stack.gateway, options.apiKey)
    },
    async close() {
      await stack.gateway.close()
      await upstream.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
  stack.client = clientFor(stack.gateway, options.apiKey)
  return stack
}

function clientFor(gateway: RunningGateway, apiKey = 'test-key'): OpenAI {
  return new OpenAI({ apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0, timeout: 20_000 })
}

/** A scripted text answer. */
export const text = (value: string): { blocks: Array<{ type: 'text'; text: string }> } => ({
  blocks: [{ type: 'text', text: value }],
})

/** The text of every user/assistant message the upstream received in request `index`. */
export function upstreamTexts(upstream: ScriptedServer, index: number): string[] {
  const input = upstream.requests[index]?.body.input
  if (!Array.isArray(input)) return []
  return input.flatMap((item: Record<string, unknown>) => {
    if (item.type !== 'message') return []
    if (typeof item.content === 'string') return [`${item.role}:${item.content}`]
    const parts = Array.isArray(item.content) ? (item.content as Array<Record<string, unknown>>) : []
    return [`${item.role}:${parts.map((part) => String(part.text ?? '')).join('')}`]
  })
}
