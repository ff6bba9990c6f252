/**
 * Background responses (OpenAI's `background: true`): each runs detached from the request that
 * created it, in this process. Its events are kept (with their `sequence_number`s) so a client can
 * stream them from the start or from `starting_after` and then follow the live ones; its public
 * object answers `GET` while it runs; `cancel` aborts it. A finished run is kept a while for replay
 * and then dropped (the stored response stays, as for any other response).
 */
import type { JsonObject } from '../wire/json.js'
import type { TurnSink } from './turn-events.js'

/** One event as it was sent: its number, type and serialized payload. */
export interface RunEvent {
  sequence: number
  type: string
  json: string
}

/** Where a background response is. */
export type RunStatus = 'queued' | 'in_progress' | 'completed' | 'failed' | 'incomplete' | 'cancelled'

const TERMINAL: ReadonlySet<string> = new Set([
  'response.completed',
  'response.failed',
  'response.incomplete',
])

/** How long a finished run's events stay replayable, and how many finished runs are kept at most. */
const RETAIN_MS = 60 * 60 * 1000
const RETAIN_RUNS = 1000
/** A run's kept events past this many bytes are dropped from replay (the run itself goes on). */
const RETAIN_EVENT_BYTES = 32 * 1024 * 1024

/** One background response. */
export class BackgroundRun {
  readonly id: string
  readonly tenant: string
  readonly controller = new AbortController()
  #snapshot: JsonObject
  #events: RunEvent[] = []
  #eventBytes = 0
  /** True once events were dropped over {@link RETAIN_EVENT_BYTES}: replay is then refused. */
  #truncated = false
  #finished = false
  #finishedAt = 0
  #wake = new Set<() => void>()
  readonly #settled: Promise<void>
  #settle: () => void = () => {}

  constructor(id: string, tenant: string, snapshot: JsonObject) {
    this.id = id
    this.tenant = tenant
    this.#snapshot = snapshot
    this.#settled = new Promise((resolve) => {
      this.#settle = resolve
    })
  }

  /** The public response object now (queued, in progress with the output so far, or final). */
  get snapshot(): JsonObject {
    return this.#snapshot
  }

  get status(): RunStatus {
    return this.#snapshot.status as RunStatus
  }

  get finished(): boolean {
    return this.#finished
  }

  get finishedAt(): number {
    return this.#finishedAt
  }

  /** Resolves once the run has ended (finished, failed or cancelled). */
  settled(): Promise<void> {
    return this.#settled
  }

  /** The sink the turn writes to: every event is kept and handed to followers; it never reports a client gone. */
  sink(): TurnSink {
    return {
      send: (type, data, json) => {
        this.#record(type, data, json ?? JSON.stringify(data))
        return true
      },
    }
  }

  #record(type: string, data: JsonObject, json: string): void {
    const sequence = typeof data.sequence_number === 'number' ? data.sequence_number : this.#events.length
    if (!this.#truncated) {
      this.#eventBytes += json.length
      if (this.#eventBytes > RETAIN_EVENT_BYTES) {
        this.#truncated = true
        this.#events = []
      } else this.#events.push({ sequence, type, json })
    }
    const response = data.response
    if (response !== null && typeof response === 'object' && !Array.isArray(response))
      this.#snapshot = response as JsonObject
    else if (
      type === 'response.output_item.done' &&
      typeof data.output_index === 'number' &&
      data.item !== undefined
    ) {
      const output = Array.isArray(this.#snapshot.output) ? [...this.#snapshot.output] : []
      output[data.output_index] = data.item
      this.#snapshot = { ...this.#snapshot, output }
    }
    this.#notify()
  }

  /** Ends the run with its final public object (a cancelled or failed one included). */
  finish(snapshot?: JsonObject): void {
    if (this.#finished) return
    if (snapshot) this.#snapshot = snapshot
    this.#finished = true
    this.#finishedAt = Date.now()
    this.#notify()
    this.#settle()
  }

  #notify(): void {
    const wake = [...this.#wake]
    this.#wake.clear()
    for (const resolve of wake) resolve()
  }

  /** True when the events after `after` can still be replayed. */
  replayable(): boolean {
    return !this.#truncated
  }

  /**
   * The events numbered above `after` (all of them for -1), then the live ones as they come, until
   * the run ends or `signal` aborts (a follower leaving never stops the run).
   */
  async *follow(after: number, signal: AbortSignal): AsyncGenerator<RunEvent> {
    let index = this.#events.findIndex((event) => event.sequence > after)
    if (index === -1) index = this.#events.length
    for (;;) {
      while (index < this.#events.length) {
        const event = this.#events[index++] as RunEvent
        yield event
        if (TERMINAL.has(event.type)) return
      }
      if (this.#finished || signal.aborted) return
      await new Promise<void>((resolve) => {
        const done = (): void => {
          signal.removeEventListener('abort', done)
          this.#wake.delete(done)
          resolve()
        }
        this.#wake.add(done)
        signal.addEventListener('abort', done, { once: true })
      })
    }
  }
}

/** The process's background runs: live ones, and finished ones kept for replay a while. */
export class BackgroundRuns {
  readonly #runs = new Map<string, BackgroundRun>()

  /** Registers a new run. */
  add(run: BackgroundRun): void {
    this.#prune()
    this.#runs.set(run.id, run)
  }

  /** A run of this tenant (another tenant's is as absent as a missing one). */
  get(id: string, tenant: string): BackgroundRun | undefined {
    const run = this.#runs.get(id)
    return run && run.tenant === tenant ? run : undefined
  }

  /** How many runs have not ended. */
  get active(): number {
    let count = 0
    for (const run of this.#runs.values()) if (!run.finished) count += 1
    return count
  }

  /** Forgets a run (its response was deleted). */
  delete(id: string): void {
    this.#runs.delete(id)
  }

  /** Waits for the live runs to end, up to `timeoutMs`; true when they all did. */
  async drain(timeoutMs: number): Promise<boolean> {
    const live = [...this.#runs.values()].filter((run) => !run.finished)
    if (live.length === 0) return true
    let timer: NodeJS.Timeout | undefined
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs)
    })
    const ended = Promise.all(live.map((run) => run.settled())).then(() => true as const)
    const result = await Promise.race([ended, timedOut])
    clearTimeout(timer)
    return result
  }

  /** Cancels every live run and waits for them to end (shutdown). */
  async cancelAll(): Promise<void> {
    const live = [...this.#runs.values()].filter((run) => !run.finished)
    for (const run of live) run.controller.abort()
    await Promise.all(live.map((run) => run.settled()))
  }

  /** Drops finished runs older than the retention, then the oldest finished ones over the count. */
  #prune(): void {
    const now = Date.now()
    const finished: BackgroundRun[] = []
    for (const run of this.#runs.values()) {
      if (!run.finished) continue
      if (now - run.finishedAt > RETAIN_MS) this.#runs.delete(run.id)
      else finished.push(run)
    }
    for (const run of finished.slice(0, Math.max(0, finished.length - RETAIN_RUNS))) this.#runs.delete(run.id)
  }
}
