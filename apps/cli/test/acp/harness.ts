import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type ActiveSession,
  type ActiveSessionMessage,
  type ClientContext,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  client,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type SessionUpdate,
  type StopReason,
} from '@agentclientprotocol/sdk'
import { Engine } from '@z-engine/engine'
import { ScriptedClient, type ScriptedClientOptions, type ScriptSource } from '@z-engine/engine/testing'
import type { EventEnvelope } from '@z-engine/protocol'
import { afterEach } from 'vitest'
import { createAcpAgent, SessionEventRouter } from '../../src/acp/acp-agent.js'

const cleanups: Array<() => Promise<void> | void> = []

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A fresh temp dir (symlinks resolved), removed after the test. */
export function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** How the test client answers permission requests (it records every request it gets). */
export type PermissionAnswer = (
  request: RequestPermissionRequest,
  signal: AbortSignal,
) => RequestPermissionResponse | Promise<RequestPermissionResponse>

/**
 * An ACP agent over a real engine with a scripted model, connected to the SDK's client side through
 * an in-process pair of byte streams (newline-delimited JSON both ways, as over stdio).
 */
export async function connectAgent(
  script: ScriptSource,
  answer: PermissionAnswer,
  options: ScriptedClientOptions = {},
  dirs: { home?: string; project?: string } = {},
  /** `--model` for the agent (the scripted client answers whatever the reference names). */
  agentModel?: string,
  /** How the client fills in forms (`elicitation/create`); it records every form it gets. */
  elicit?: (request: CreateElicitationRequest) => CreateElicitationResponse,
) {
  const home = dirs.home ?? tempDir('ze-acp-home-')
  const project = dirs.project ?? tempDir('ze-acp-proj-')
  const model = new ScriptedClient(script, options)
  const events = new SessionEventRouter()
  /** Every engine event, for checks the client cannot see. */
  const envelopes: EventEnvelope[] = []
  const engine = await Engine.create({
    home,
    dataDir: join(home, 'data'),
    configDir: join(home, 'config'),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
    clientFactory: {
      createClient: () => ({ ok: true, client: model, provider: 'scripted', model: 'scripted' }),
    },
    onEvent: (envelope) => {
      envelopes.push(envelope)
      events.publish(envelope)
    },
  })
  cleanups.push(() => engine.shutdown())
  const toClient = new TransformStream<Uint8Array, Uint8Array>()
  const toAgent = new TransformStream<Uint8Array, Uint8Array>()
  const agentConnection = createAcpAgent({
    engine,
    events,
    ...(agentModel !== undefined ? { model: agentModel } : {}),
  }).connect(ndJsonStream(toClient.writable, toAgent.readable))
  cleanups.push(() => agentConnection.close())
  const permissionRequests: RequestPermissionRequest[] = []
  /** Every session/update received, whichever session it is for. */
  const notifications: SessionNotification[] = []
  // `unknown`: the SDK names the form type only through a path declarations cannot reference.
  const forms: unknown[] = []
  const app = client({ name: 'test-client' })
    .onRequest(methods.client.session.requestPermission, ({ params, signal }) => {
      permissionRequests.push(params)
      return answer(params, signal)
    })
    .onNotification(methods.client.session.update, ({ params }) => {
      notifications.push(params)
    })
    .onRequest(methods.client.elicitation.create, ({ params }) => {
      forms.push(params)
      // A client that did not advertise forms is never sent one: this marks the test as wrong.
      if (elicit === undefined) throw new Error('the agent sent a form to a client without form elicitation')
      return elicit(params)
    })
  const clientConnection = app.connect(ndJsonStream(toAgent.writable, toClient.readable))
  cleanups.push(() => clientConnection.close())
  return {
    engine,
    model,
    project,
    home,
    agent: clientConnection.agent,
    permissionRequests,
    forms,
    notifications,
    envelopes,
  }
}

/** Starts a session in `cwd` after initializing. */
export async function startSession(agent: ClientContext, cwd: string): Promise<ActiveSession> {
  const init = await agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION })
  if (init.protocolVersion !== PROTOCOL_VERSION) throw new Error(`protocol ${init.protocolVersion}`)
  return agent.buildSession(cwd).start()
}

/** Reads every update of the current prompt and its stop reason. */
export async function drain(
  session: ActiveSession,
): Promise<{ updates: SessionUpdate[]; stopReason: StopReason }> {
  const updates: SessionUpdate[] = []
  for (;;) {
    const message: ActiveSessionMessage = await session.nextUpdate()
    if (message.kind === 'stop') return { updates, stopReason: message.stopReason }
    updates.push(message.update)
  }
}
