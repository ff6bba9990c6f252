import type {
  ApprovalDecision,
  EngineEvent,
  LogRecord,
  Message,
  MessageOrigin,
  PlanDecision,
  QuestionResponse,
} from '@z-engine/protocol'
import { Broker } from '../broker/broker.js'
import type { EventHub, EventScope } from './event-hub.js'
import type { SessionServices } from './services.js'
import type { RecordBody, SessionLimits } from './session-types.js'
import type { SessionState } from './state.js'

/** What a session core is built from; the engine assembles it before anything that uses it. */
export interface SessionCoreInit {
  id: string
  projectRoot: string
  state: SessionState
  services: SessionServices
  hub: EventHub
  limits: SessionLimits
  newId(prefix: string): string
}

/**
 * The session's inside, shared by everything that works for it (turns, both run hosts, approvals,
 * the interaction port, compaction, the command runner, orchestration): its state, the journal
 * (journal before publish), the brokers that hold the user's answers, its services, limits and ids.
 * Built first, so nothing needs the public `Session` handle — which exposes none of this.
 */
export class SessionCore {
  readonly id: string
  readonly projectRoot: string
  readonly state: SessionState
  readonly services: SessionServices
  readonly limits: SessionLimits
  /** Approvals wait here until `resolveApproval` answers them. */
  readonly approvals = new Broker<ApprovalDecision>()
  /** Questions wait here until `answerQuestion` answers them. */
  readonly questions = new Broker<QuestionResponse>()
  /** Plan reviews wait here until `resolvePlan` answers them. */
  readonly plans = new Broker<PlanDecision>()
  readonly newId: (prefix: string) => string
  readonly #hub: EventHub

  constructor(init: SessionCoreInit) {
    this.id = init.id
    this.projectRoot = init.projectRoot
    this.state = init.state
    this.services = init.services
    this.limits = init.limits
    this.newId = init.newId
    this.#hub = init.hub
  }

  /** Journals `record` (when given) and then publishes `event`: journal before publish. */
  async commit(
    event: EngineEvent | undefined,
    record: RecordBody<LogRecord> | undefined,
    scope: EventScope = {},
  ): Promise<void> {
    if (record) {
      const full = { ...record, id: this.newId('r'), at: new Date().toISOString() } as LogRecord
      await this.services.log.append(full)
    }
    if (event) this.#hub.publish(event, scope)
  }

  /** Publishes a live event that is never journaled (deltas, progress, command output). */
  publish(event: EngineEvent, scope: EventScope = {}): void {
    this.#hub.publish(event, scope)
  }

  /** Appends a message to the working set, journaled first. */
  async appendMessage(message: Message, origin: MessageOrigin, turnId: string | undefined): Promise<void> {
    await this.commit(
      { type: 'messageRecorded', message },
      { type: 'message', message, origin, ...(turnId !== undefined ? { turnId } : {}) },
      turnId !== undefined ? { turnId } : {},
    )
    this.state.workingSet.push(message)
  }

  /** Publishes a notice (not journaled). */
  notice(level: 'info' | 'warning' | 'error', message: string, code?: string): void {
    this.#hub.publish({ type: 'notice', level, message, ...(code !== undefined ? { code } : {}) })
  }

  /** Cancels every wait on the user (the session is closing). */
  cancelWaits(): void {
    this.approvals.cancelAll()
    this.questions.cancelAll()
    this.plans.cancelAll()
  }
}
