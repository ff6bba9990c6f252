import type { EngineEvent, EventEnvelope } from '@z-engine/protocol'
import { AsyncQueue } from '../util/async-queue.js'

/** How many early events the first subscriber can catch up on. */
const BACKLOG_LIMIT = 1_000

/** Where an event came from within the session. */
export interface EventScope {
  turnId?: string
  agentId?: string
}

/**
 * Numbers and fans out a session's events: every subscriber (and the engine-wide sink) sees the same
 * gap-free sequence. Publishing never waits for a reader.
 */
export class EventHub {
  #seq = 0
  readonly #subscribers = new Set<AsyncQueue<EventEnvelope>>()
  /**
   * Events published before anyone subscribed (sessionOpened, settings notices, trustRequired), so
   * the first `events()` iterator still sees the session from its first event. Bounded.
   */
  #backlog: EventEnvelope[] | undefined = []

  constructor(
    private readonly sessionId: string,
    private readonly sink: ((envelope: EventEnvelope) => void) | undefined,
  ) {}

  /** Wraps the event in an envelope and delivers it. */
  publish(event: EngineEvent, scope: EventScope = {}): EventEnvelope {
    const envelope: EventEnvelope = {
      seq: this.#seq++,
      sessionId: this.sessionId,
      at: new Date().toISOString(),
      event,
      ...(scope.turnId !== undefined ? { turnId: scope.turnId } : {}),
      ...(scope.agentId !== undefined ? { agentId: scope.agentId } : {}),
    }
    if (this.#backlog && this.#backlog.length < BACKLOG_LIMIT) this.#backlog.push(envelope)
    for (const subscriber of this.#subscribers) subscriber.push(envelope)
    try {
      this.sink?.(envelope)
    } catch {
      // An embedder's sink must not break the session.
    }
    return envelope
  }

  /** Events published from now on, until `close`; the first subscriber also gets the backlog. */
  subscribe(options: { backlog?: boolean } = {}): AsyncQueue<EventEnvelope> {
    const queue = new AsyncQueue<EventEnvelope>()
    // Internal followers (turn handles) take only what comes next and leave the backlog alone.
    if (options.backlog !== false) {
      for (const envelope of this.#backlog ?? []) queue.push(envelope)
      this.#backlog = undefined
    }
    this.#subscribers.add(queue)
    return queue
  }

  /** Stops delivering to one subscriber. */
  unsubscribe(queue: AsyncQueue<EventEnvelope>): void {
    this.#subscribers.delete(queue)
    queue.close()
  }

  /** Ends every subscription. */
  close(): void {
    for (const subscriber of this.#subscribers) subscriber.close()
    this.#subscribers.clear()
  }
}
