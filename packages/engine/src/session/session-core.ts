import {
  type ApprovalDecision,
  type EngineEvent,
  isPersistedEvent,
  type LiveEvent,
  type Message,
  type MessageOrigin,
  type PersistedEvent,
  type PersistedRecord,
  type PlanDecision,
  type QuestionResponse,
} from '@z-engine/protocol'
import { Broker } from '../broker/broker.js'
import type { EventHub, EventScope } from './event-hub.js'
import type { SessionServices } from './services.js'
import type { SessionLimits } from './session-types.js'
import type { SessionState } from './state.js'

/** What a session core is built from; the engine assembles it before anything that uses it. */
export interface SessionCoreInit {
  id: string
  projectRoot: string
  /** Where the main agent's shell starts (default the project root). */
  cwd?: string
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
  /** Where the main agent's shell starts each turn: the project root or a folder inside it. */
  readonly startCwd: string
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
    this.startCwd = init.cwd ?? init.projectRoot
    this.state = init.state
    this.services = init.services
    this.limits = init.limits
    this.newId = init.newId
    this.#hub = init.hub
  }

  /**
   * Journals `event` if it is a persisted event (protocol's `isPersistedEvent`, the one rule), then
   * publishes it: journal before publish. Every event of a session goes out through here.
   */
  async commit(event: EngineEvent, scope: EventScope = {}): Promise<void> {
    if (isPersistedEvent(event)) await this.journal(event, scope)
    this.#hub.publish(event, scope)
  }

  /**
   * Journals a persisted event without publishing it — for what is published otherwise or later:
   * the mode and model in effect at open (`sessionOpened` announces them), and a rewind (published
   * once the working set is rebuilt from the journal). The record is the event plus id, time and scope.
   */
  async journal(event: PersistedEvent, scope: EventScope = {}): Promise<void> {
    const record = {
      ...event,
      id: this.newId('r'),
      at: new Date().toISOString(),
      ...(scope.turnId !== undefined ? { turnId: scope.turnId } : {}),
      ...(scope.agentId !== undefined ? { agentId: scope.agentId } : {}),
    } as PersistedRecord
    // A subagent's conversation is its own transcript (agents/<id>.jsonl, spec 003); everything
    // else it does (usage, approvals, questions) goes in the session log under its agentId.
    if (event.type === 'messageRecorded' && scope.agentId !== undefined)
      await this.services.log.appendAgent(scope.agentId, record)
    else await this.services.log.append(record)
  }

  /** Publishes a live event, which is never journaled (deltas, progress, command output). */
  publish(event: LiveEvent, scope: EventScope = {}): void {
    this.#hub.publish(event, scope)
  }

  /** Appends a message to the working set, journaled first. */
  async appendMessage(message: Message, origin: MessageOrigin, turnId: string | undefined): Promise<void> {
    await this.commit({ type: 'messageRecorded', message, origin }, turnId !== undefined ? { turnId } : {})
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
