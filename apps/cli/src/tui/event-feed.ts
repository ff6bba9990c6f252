import type { EventEnvelope } from '@z-engine/protocol'

/** A listener of engine events. */
export type EventListener = (envelope: EventEnvelope) => void

/**
 * Bridges the engine's `onEvent` sink to the screen. The engine publishes events while a session
 * opens (before the screen mounts), so everything published with no listener is held and replayed
 * to the first one: the screen sees a complete, ordered stream.
 */
export class EventFeed {
  readonly #held: EventEnvelope[] = []
  readonly #listeners = new Set<EventListener>()

  /** Pass as the engine's `onEvent`. */
  readonly publish = (envelope: EventEnvelope): void => {
    if (this.#listeners.size === 0) {
      this.#held.push(envelope)
      return
    }
    for (const listener of this.#listeners) listener(envelope)
  }

  /** Starts delivering events (held ones first); returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener)
    for (const envelope of this.#held.splice(0)) listener(envelope)
    return () => {
      this.#listeners.delete(listener)
    }
  }
}
