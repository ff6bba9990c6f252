/**
 * A turn's events as the client sees them: numbered in order, each under the stream-event ceiling,
 * none after the client left. A sink that has room takes an event at once, so relaying one costs no
 * promise; only backpressure (or a sink that is asynchronous by nature) makes the caller wait.
 */
import type { JsonObject } from '../wire/json.js'

/** Where a streaming response's events go. */
export interface TurnSink {
  /**
   * Takes one event (`json` is `data` already serialized, so it is encoded once): true when it went
   * out, false when the client left; a promise when the sink must wait (backpressure) first.
   */
  send(type: string, data: JsonObject, json?: string): boolean | Promise<boolean>
}

/** The numbered event stream of one turn (every method is a no-op without a sink). */
export class TurnEvents {
  readonly #sink: TurnSink | undefined
  readonly #maxEventBytes: number
  /** The next event's `sequence_number`. */
  sequence = 0
  /** The client went away: nothing more is sent, and the turn is aborted. */
  clientGone = false
  /** An event would have exceeded the ceiling: the turn ends `incomplete`. */
  eventLimitHit = false

  constructor(sink: TurnSink | undefined, maxEventBytes: number) {
    this.#sink = sink
    this.#maxEventBytes = maxEventBytes
  }

  /** True once nothing more can be sent (the client left, or the ceiling was hit). */
  get halted(): boolean {
    return this.clientGone || this.eventLimitHit
  }

  /** Sends `{type, sequence_number, ...data}`. */
  send(type: string, data: JsonObject): boolean | Promise<boolean> {
    return this.sendEvent({ type, sequence_number: this.sequence, ...data })
  }

  /** Sends an event built already (`type` set; its `sequence_number` is set here, in place). */
  sendEvent(event: JsonObject): boolean | Promise<boolean> {
    if (!this.#sink || this.halted) return !this.halted
    event.sequence_number = this.sequence
    const json = JSON.stringify(event)
    // A UTF-16 unit is at most 3 UTF-8 bytes: only an event near the limit needs the exact count.
    if (json.length * 3 > this.#maxEventBytes && Buffer.byteLength(json) > this.#maxEventBytes) {
      this.eventLimitHit = true
      return false
    }
    this.sequence += 1
    const sent = this.#sink.send(String(event.type), event, json)
    return typeof sent === 'boolean' ? this.#sent(sent) : sent.then((ok) => this.#sent(ok))
  }

  #sent(ok: boolean): boolean {
    if (!ok) this.clientGone = true
    return !this.clientGone
  }
}
