import { join } from 'node:path'
import type { EngineEvent, EventEnvelope } from '@z-engine/protocol'
import { afterEach } from 'vitest'
import { type DefinedTool, Engine, type Session } from '../src/index.js'
import { type ScriptedServer, type ServerScript, startScriptedServer } from '../src/testing.js'
import { tempDir } from './engine-harness.js'

const servers: ScriptedServer[] = []

/** Closes every scripted server started by `sdkEngine` after each test. */
export function cleanupServers(): void {
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()))
  })
}

/** The model refs of the four wire formats the scripted server speaks, driven by the real SDKs. */
export const WIRE_MODELS = {
  anthropic: 'anthropic/claude-sonnet-4-6',
  'openai-chat': 'openai-chat/gpt-4.1',
  'openai-responses': 'openai/gpt-5',
  gemini: 'gemini/gemini-2.5-flash',
} as const

/** An engine whose default client factory drives the real SDKs against a scripted HTTP server. */
export async function sdkEngine(
  script: ServerScript,
  options: { home?: string; server?: ScriptedServer; chunkDelayMs?: number; tools?: DefinedTool[] } = {},
) {
  const server =
    options.server ??
    (await startScriptedServer(
      script,
      options.chunkDelayMs !== undefined ? { chunkDelayMs: options.chunkDelayMs } : {},
    ))
  if (!options.server) servers.push(server)
  const home = options.home ?? tempDir('ze-home-')
  const envelopes: EventEnvelope[] = []
  const engine = await Engine.create({
    home,
    dataDir: join(home, 'data'),
    configDir: join(home, 'config'),
    env: {
      ANTHROPIC_API_KEY: 'x',
      ANTHROPIC_BASE_URL: server.url,
      OPENAI_API_KEY: 'x',
      OPENAI_BASE_URL: server.openaiBaseUrl,
      GEMINI_API_KEY: 'x',
      GOOGLE_GEMINI_BASE_URL: server.geminiBaseUrl,
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
    },
    onEvent: (envelope) => envelopes.push(envelope),
    ...(options.tools ? { tools: options.tools } : {}),
  })
  return { engine, server, home, envelopes, ...eventHelpers(envelopes) }
}

/** `events` and `waitFor` over a list of envelopes. */
export function eventHelpers(envelopes: EventEnvelope[]) {
  const events = (session: Session, type?: EngineEvent['type']) =>
    envelopes
      .filter((envelope) => envelope.sessionId === session.id)
      .map((envelope) => envelope.event)
      .filter((event) => type === undefined || event.type === type)
  /** Resolves with the `count`-th event of `type` of a session (fails after `timeoutMs`). */
  const waitFor = async (
    session: Session,
    type: EngineEvent['type'],
    count = 1,
    // A ceiling for a loaded machine, not a wait: it returns as soon as the event is there.
    timeoutMs = 90_000,
  ): Promise<EngineEvent> => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = events(session, type)
      if (found.length >= count) return found[count - 1]!
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${type} #${count}; saw ${events(session)
            .map((event) => event.type)
            .join(', ')}`,
        )
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  }
  return { events, waitFor }
}
