import type { EngineEvent, EventEnvelope } from '@z-engine/protocol'
import { AsyncQueue } from '../util/async-queue.js'

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
    for (const subscriber of this.#subscribers) subscriber.push(envelope)
    try {
      this.sink?.(envelope)
    } catch {
      // An embedder's sink must not break the session.
    }
    return envelope
  }

  /** Events published from now on, until `close`. */
  subscribe(): AsyncQueue<EventEnvelope> {
    const queue = new AsyncQueue<EventEnvelope>()
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
