import type { Action, Decision } from '@z-engine/policy'
import type { EngineEvent, EventEnvelope, LogRecord, PermissionMode } from '@z-engine/protocol'
import { ZERO_COST } from '@z-engine/protocol'
import type { Tool, ToolCtx, ToolResult } from '@z-engine/tools'
import { DEFAULT_TOOL_LIMITS } from '@z-engine/tools'
import { ScriptedClient, type ScriptSource } from '../model/scripted/scripted-client.js'
import { newId } from '../util/ids.js'
import { EventHub } from './event-hub.js'
import type { CheckpointPort, HookPort, SessionServices } from './services.js'
import { SessionActor } from './session.js'
import { SessionCore } from './session-core.js'
import { SessionState } from './state.js'

/** A tool for session tests that records its calls; `delayMs` lets tests cancel it mid-call. */
export function recordingTool(
  name: string,
  options: { readOnly?: boolean; delayMs?: number; output?: string } = {},
) {
  const calls: Array<Record<string, unknown>> = []
  const tool: Tool = {
    name,
    description: () => `${name} tool`,
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
    isReadOnly: () => options.readOnly ?? true,
    isConcurrencySafe: () => options.readOnly ?? true,
    action: (input): Action =>
      (options.readOnly ?? true)
        ? { type: 'read', paths: [String(input.path ?? '.')] }
        : { type: 'write', paths: [String(input.path ?? '.')] },
    title: (input) => `${name} ${String(input.path ?? '')}`,
    preview: async () => undefined,
    call: async (input, _ctx, signal): Promise<ToolResult> => {
      calls.push(input)
      if (options.delayMs) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.delayMs)
          signal.addEventListener('abort', () => {
            clearTimeout(timer)
            resolve()
          })
        })
      }
      return { ok: true, output: { content: [{ type: 'text', text: options.output ?? `${name} ok` }] } }
    },
  }
  return { tool, calls }
}

const noHooks: HookPort = {
  preToolUse: async () => ({}),
  postToolUse: async () => ({}),
  userPromptSubmit: async () => ({}),
  stop: async () => ({}),
  sessionStart: async () => ({}),
  preCompact: async () => ({}),
}

/** A session over in-memory services and a scripted client. */
export function testSession(options: {
  script: ScriptSource
  tools?: Tool[]
  decide?: (toolName: string, action: Action, mode: PermissionMode) => Decision
  hooks?: Partial<HookPort>
  mode?: PermissionMode
  maxTurns?: number
  clientDelayMs?: number
  /** Makes each journal sync slow (the turn's end waits for it). */
  syncDelayMs?: number
  /** Takes the place of the default port (which takes no checkpoints). */
  checkpoints?: CheckpointPort
}) {
  const records: LogRecord[] = []
  const agentRecords: LogRecord[] = []
  const envelopes: EventEnvelope[] = []
  const granted: Array<{ rule: string; scope: string }> = []
  /** How many records the log held when it was closed. */
  let recordsAtClose: number | undefined
  const client = new ScriptedClient(options.script, { delayMs: options.clientDelayMs ?? 0 })
  const id = newId('s')
  const hub = new EventHub(id, (envelope) => envelopes.push(envelope))
  const services: SessionServices = {
    log: {
      append: async (record) => {
        records.push(record)
      },
      appendAgent: async (_agentId, record) => {
        agentRecords.push(record)
      },
      sync: async () => {
        if (options.syncDelayMs) await new Promise((resolve) => setTimeout(resolve, options.syncDelayMs))
      },
      close: async () => {
        recordsAtClose = records.length
      },
    },
    gate: {
      decide: options.decide ?? (() => ({ decision: 'allow', reason: 'test' })),
      grant: async (rule, scope) => {
        granted.push({ rule, scope })
      },
    },
    hooks: { ...noHooks, ...options.hooks },
    checkpoints: options.checkpoints ?? {
      create: async () => undefined,
      restore: async () => ({
        restored: [],
        skipped: [],
        leftAlone: [],
        unmarkedTurns: [],
        merged: [],
        conflicts: [],
      }),
    },
    models: { resolve: () => ({ ok: true, model: { client, id: 'scripted', maxOutputTokens: 4096 } }) },
    toolCtx: (params) =>
      ({
        sessionId: id,
        agentId: params.agentId,
        toolUseId: params.toolUseId,
        projectRoot: '/project',
        cwd: params.cwd(),
        home: '/home/u',
        additionalDirectories: [],
        setCwd: params.setCwd,
        progress: params.progress,
        limits: DEFAULT_TOOL_LIMITS,
        vision: false,
        env: {},
        ports: {},
      }) as unknown as ToolCtx,
    system: async () => [{ text: 'You are a test agent.', cacheable: true }],
    home: '/home/u',
    costOf: () => ({ ...ZERO_COST }),
  }
  const core = new SessionCore({
    id,
    projectRoot: '/project',
    state: new SessionState({ mode: options.mode ?? 'default', modelRef: 'scripted' }),
    services,
    hub,
    limits: { maxTurns: options.maxTurns ?? 200, costCapUsd: 0, maxOutputTokens: 4096, maxConcurrency: 8 },
    newId,
  })
  const session = new SessionActor({
    core,
    hub,
    agent: { tools: options.tools ?? [], relievePressure: async () => {} },
  })
  const events = (type?: EngineEvent['type']) =>
    envelopes.map((envelope) => envelope.event).filter((event) => type === undefined || event.type === type)
  /** Resolves when an event of `type` has been published (checks past events first). */
  const waitFor = async (type: EngineEvent['type'], count = 1): Promise<EngineEvent> => {
    for (;;) {
      const found = events(type)
      if (found.length >= count) return found[count - 1]!
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  }
  return {
    session,
    core,
    client,
    records,
    envelopes,
    events,
    waitFor,
    granted,
    recordsAtClose: () => recordsAtClose,
  }
}
