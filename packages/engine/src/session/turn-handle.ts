import type { Cost, EventEnvelope, TurnOutcome, Usage, VerificationBadge } from '@z-engine/protocol'
import { AsyncQueue } from '../util/async-queue.js'

/** What a turn came to: the same for `session.submit(text)` and `run()`. */
export interface TurnResult {
  sessionId: string
  turnId: string
  outcome: TurnOutcome
  /** The final answer: the text of the turn's last assistant message (`''` when it had none). */
  text: string
  usage: Usage
  cost: Cost
  badge: VerificationBadge
}

/**
 * One submitted message's turn: iterate it for the turn's events (ending with `turnFinished`), or
 * await it (or `result`) for its `TurnResult`. Ending the iteration early cancels the turn.
 */
export interface TurnHandle extends AsyncIterable<EventEnvelope>, PromiseLike<TurnResult> {
  readonly result: Promise<TurnResult>
  /** Cancels the turn (as the `cancel` command does). */
  cancel(): void
}

/** Where a handle's turn is found: the events from now on, the turn once known, and how to cancel. */
export interface TurnSource {
  events: AsyncQueue<EventEnvelope>
  /** Stops the event subscription. */
  unsubscribe(): void
  /** Resolves with the id of the turn the text was delivered into. */
  turnId: Promise<string>
  cancel(): void
}

/**
 * Follows one turn through the session's events: buffers until the turn is known, then passes on
 * its events (dropping other turns') through its `turnFinished`, which settles the result.
 */
export function createTurnHandle(source: TurnSource): TurnHandle {
  const out = new AsyncQueue<EventEnvelope>()
  let settle!: { resolve: (result: TurnResult) => void; reject: (error: Error) => void }
  const result = new Promise<TurnResult>((resolve, reject) => {
    settle = { resolve, reject }
  })
  // Awaiting the handle is optional: an unobserved failure must not crash the host.
  result.catch(() => {})
  let turnId: string | undefined
  const buffered: EventEnvelope[] = []
  let finished = false
  const pass = (envelope: EventEnvelope): void => {
    if (envelope.turnId !== undefined && envelope.turnId !== turnId) return
    out.push(envelope)
    const { event } = envelope
    if (event.type === 'turnFinished' && event.turnId === turnId) {
      finished = true
      settle.resolve({
        sessionId: envelope.sessionId,
        turnId: event.turnId,
        outcome: event.outcome,
        text: event.text ?? '',
        usage: event.usage,
        cost: event.cost,
        badge: event.badge,
      })
      source.unsubscribe()
      out.close()
    }
  }
  void source.turnId.then((id) => {
    turnId = id
    for (const envelope of buffered.splice(0)) if (!finished) pass(envelope)
  })
  void (async () => {
    for await (const envelope of source.events) {
      if (finished) break
      if (turnId === undefined) buffered.push(envelope)
      else pass(envelope)
    }
    if (!finished) {
      // The session closed before the turn ended (or before it ran).
      settle.reject(new Error('The session closed before the turn finished.'))
      out.close()
    }
  })()
  return {
    result,
    cancel: source.cancel,
    // biome-ignore lint/suspicious/noThenProperty: a turn handle is awaited for its result by design.
    then: (onFulfilled, onRejected) => result.then(onFulfilled, onRejected),
    [Symbol.asyncIterator]: () => ({
      next: () => out.next(),
      return: () => {
        if (!finished) source.cancel()
        out.close()
        return Promise.resolve({ value: undefined, done: true })
      },
    }),
  }
}
