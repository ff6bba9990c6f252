import {
  type AgentApp,
  type AgentContext,
  agent,
  type ContentBlock,
  methods,
  PROTOCOL_VERSION,
  type PromptResponse,
  RequestError,
  type SessionUpdate,
  type StopReason,
} from '@agentclientprotocol/sdk'
import { type Engine, EngineError, type Session, type SubmitAttachments } from '@z-engine/engine'
import type { EventEnvelope, PermissionMode, TurnOutcome } from '@z-engine/protocol'
import { askPermission, askPlan, askQuestions } from './client-asks.js'
import { promptImages } from './prompt-images.js'
import { SessionUpdateMapper } from './session-updates.js'
import { transcriptUpdates } from './transcript-updates.js'

/** Routes the engine's single event sink to per-session listeners. */
export class SessionEventRouter {
  readonly #listeners = new Map<string, Set<(envelope: EventEnvelope) => void>>()

  /** Pass as the engine's `onEvent`. */
  readonly publish = (envelope: EventEnvelope): void => {
    for (const listener of this.#listeners.get(envelope.sessionId) ?? []) listener(envelope)
  }

  /** Listens to one session's events; returns the unsubscribe function. */
  on(sessionId: string, listener: (envelope: EventEnvelope) => void): () => void {
    const listeners = this.#listeners.get(sessionId) ?? new Set()
    listeners.add(listener)
    this.#listeners.set(sessionId, listeners)
    return () => listeners.delete(listener)
  }
}

/** What the ACP agent serves from. */
export interface AcpAgentOptions {
  engine: Engine
  /** Must be the `onEvent` router of `engine`. */
  events: SessionEventRouter
  /** `--model`: the model every new session uses (default: settings). */
  model?: string
  /** `--permission-mode`: the mode new sessions start in (default: settings). */
  mode?: PermissionMode
}

const MODES: Array<{ id: PermissionMode; name: string; description: string }> = [
  { id: 'default', name: 'Ask', description: 'Ask before edits and commands the rules do not allow' },
  { id: 'acceptEdits', name: 'Accept edits', description: 'Apply file edits in the project without asking' },
  { id: 'plan', name: 'Plan', description: 'Read and plan only; propose the plan before changing anything' },
  { id: 'bypass', name: 'Bypass', description: 'Run everything except what deny rules forbid' },
]

/** How an engine turn outcome reads as an ACP stop reason; a failed turn is an error response. */
export function stopReasonOf(outcome: TurnOutcome): StopReason {
  switch (outcome.type) {
    case 'done':
      return 'end_turn'
    case 'interrupted':
    case 'cancelled':
      return 'cancelled'
    case 'budgetExhausted':
      return 'max_turn_requests'
    case 'incomplete':
      // ACP has a stop reason for a cut-off answer; an empty one still ends the turn.
      return outcome.reason === 'maxTokens' ? 'max_tokens' : 'end_turn'
    case 'failed':
      throw RequestError.internalError({ code: outcome.error.code }, outcome.error.message)
    default: {
      const unreachable: never = outcome
      return unreachable
    }
  }
}

/** The prompt's text: text blocks, with linked and embedded resources named so the agent can read them. */
export function promptText(blocks: readonly ContentBlock[]): string {
  const parts: string[] = []
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        parts.push(block.text)
        break
      case 'resource_link':
        parts.push(`@${block.uri.replace(/^file:\/\//, '')}`)
        break
      case 'resource':
        if ('text' in block.resource)
          parts.push(`<resource uri="${block.resource.uri}">\n${block.resource.text}\n</resource>`)
        else parts.push(`@${block.resource.uri.replace(/^file:\/\//, '')}`)
        break
      case 'image':
        // Images travel as attachments (promptImages), not as text.
        break
      case 'audio':
        // Not offered in promptCapabilities; a client that sends one anyway gets its text only.
        break
      default: {
        const unreachable: never = block
        throw RequestError.invalidParams(unreachable, 'unknown content block')
      }
    }
  }
  return parts.join('\n').trim()
}

/**
 * Submits one prompt and streams its turn to the client as session updates, asking the client
 * about approvals, questions and plans; resolves with the stop reason once the turn has finished
 * and every update has been sent.
 */
function runPrompt(
  events: SessionEventRouter,
  client: AgentContext,
  session: Session,
  prompt: { text: string; attachments: SubmitAttachments; formElicitation: boolean },
): Promise<PromptResponse> {
  const { text, attachments, formElicitation } = prompt
  return new Promise((resolve, reject) => {
    const mapper = new SessionUpdateMapper()
    // Updates go out in event order, and all of them before the prompt's response.
    let sent: Promise<void> = Promise.resolve()
    const notify = (update: SessionUpdate) => {
      sent = sent.then(() =>
        client.notify(methods.client.session.update, { sessionId: session.id, update }).catch(() => {}),
      )
    }
    let turnId: string | undefined
    const asking = new Map<string, AbortController>()
    const settled = new Set<string>()
    const unsubscribe = events.on(session.id, (envelope) => {
      const event = envelope.event
      if (event.type === 'turnStarted' && envelope.agentId === undefined) turnId ??= event.turnId
      if (event.type === 'approvalRequested') {
        for (const update of mapper.announceApproval(event.request)) notify(update)
        const request = event.request
        void sent.then(() => {
          if (!settled.has(request.id)) askPermission(client, session, request, asking)
        })
      }
      if (event.type === 'questionAsked') {
        const request = event.question
        void sent.then(() => {
          if (!settled.has(request.id)) askQuestions(client, session, request, asking, formElicitation)
        })
      }
      if (event.type === 'planProposed') {
        const plan = event.plan
        void sent.then(() => {
          if (!settled.has(plan.id)) askPlan(client, session, plan, asking)
        })
      }
      const answered =
        event.type === 'approvalResolved'
          ? event.approvalId
          : event.type === 'questionAnswered'
            ? event.questionId
            : event.type === 'planResolved'
              ? event.planId
              : undefined
      if (answered !== undefined) {
        settled.add(answered)
        const withdraw = asking.get(answered)
        asking.delete(answered)
        withdraw?.abort()
      }
      for (const update of mapper.map(envelope)) notify(update)
      if (event.type === 'turnFinished' && envelope.agentId === undefined && event.turnId === turnId) {
        unsubscribe()
        void sent.then(() => {
          try {
            resolve({ stopReason: stopReasonOf(event.outcome) })
          } catch (error) {
            reject(error)
          }
        })
      }
    })
    session.send({ type: 'submit', text, ...(attachments.length > 0 ? { attachments } : {}) })
  })
}

/**
 * The Agent Client Protocol agent: `session/new` opens an engine session in `cwd`, `session/prompt`
 * submits and streams the turn as session updates until it finishes, `session/cancel` interrupts,
 * and every approval card goes to the client as `session/request_permission`.
 */
export function createAcpAgent(options: AcpAgentOptions): AgentApp {
  const sessions = new Map<string, Session>()
  /** Sessions with a prompt running: their events reach the client through that prompt. */
  const prompting = new Set<string>()
  /** Each session's out-of-prompt listener, replaced when `session/load` reopens it. */
  const modeListeners = new Map<string, () => void>()
  const sessionOf = (sessionId: string): Session => {
    const session = sessions.get(sessionId)
    if (!session) throw RequestError.sessionNotFound(sessionId)
    return session
  }

  /** Whether the client fills in forms (`elicitation/create`), from its `initialize` capabilities. */
  let formElicitation = false

  /** Opens (or resumes) an engine session for the client and keeps it until the connection ends. */
  const openSession = async (
    client: AgentContext,
    cwd: string,
    resume: string | undefined,
  ): Promise<Session> => {
    let session: Session
    try {
      session = await options.engine.openSession({
        projectRoot: cwd,
        ...(resume !== undefined ? { resume } : {}),
        ...(options.model !== undefined ? { model: options.model } : {}),
        ...(options.mode !== undefined ? { mode: options.mode } : {}),
      })
    } catch (error) {
      if (error instanceof EngineError && error.code === 'sessionNotFound')
        throw RequestError.sessionNotFound(resume ?? '')
      if (error instanceof EngineError) throw RequestError.internalError({ code: error.code }, error.message)
      throw error
    }
    sessions.set(session.id, session)
    // Outside a prompt, a mode change (session/set_mode, a plan approval) is still news to the client.
    modeListeners.get(session.id)?.()
    const stop = options.events.on(session.id, (envelope) => {
      if (envelope.event.type !== 'modeChanged' || prompting.has(session.id)) return
      void client
        .notify(methods.client.session.update, {
          sessionId: session.id,
          update: { sessionUpdate: 'current_mode_update', currentModeId: envelope.event.mode },
        })
        .catch(() => {})
    })
    modeListeners.set(session.id, stop)
    return session
  }

  return agent({ name: 'z-engine' })
    .onRequest(methods.agent.initialize, ({ params }) => {
      formElicitation = params.clientCapabilities?.elicitation?.form != null
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          // Images are offered; a session whose model has no image input refuses them (promptImages).
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
        },
        agentInfo: { name: 'z-engine', version: '0.1.0' },
      }
    })
    .onRequest(methods.agent.session.new, async ({ params, client }) => {
      const session = await openSession(client, params.cwd, undefined)
      return { sessionId: session.id, modes: { currentModeId: session.mode, availableModes: MODES } }
    })
    .onRequest(methods.agent.session.load, async ({ params, client }) => {
      await sessions.get(params.sessionId)?.close()
      const session = await openSession(client, params.cwd, params.sessionId)
      const replayed = await options.engine.store.replay(session.id)
      if (replayed.ok)
        for (const update of transcriptUpdates(replayed.value.snapshot.transcript))
          await client.notify(methods.client.session.update, { sessionId: session.id, update })
      return { modes: { currentModeId: session.mode, availableModes: MODES } }
    })
    .onRequest(methods.agent.session.setMode, ({ params }) => {
      const mode = MODES.find((candidate) => candidate.id === params.modeId)
      if (!mode) throw RequestError.invalidParams({ modeId: params.modeId }, 'unknown mode')
      sessionOf(params.sessionId).send({ type: 'setMode', mode: mode.id })
      return {}
    })
    .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
      const session = sessionOf(params.sessionId)
      if (session.busy)
        throw RequestError.invalidRequest(undefined, 'A prompt is already running in this session.')
      const text = promptText(params.prompt)
      const images = promptImages(params.prompt, session.model)
      if (!images.ok) throw RequestError.invalidParams({ model: session.model }, images.error)
      if (text === '' && images.attachments.length === 0)
        throw RequestError.invalidParams(undefined, 'The prompt has no text.')
      prompting.add(session.id)
      try {
        return await runPrompt(options.events, client, session, {
          text,
          attachments: images.attachments,
          formElicitation,
        })
      } finally {
        prompting.delete(session.id)
      }
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.send({ type: 'interrupt' })
    })
}
