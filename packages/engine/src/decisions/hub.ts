import type { DecisionSeam, DecisionTrace, Suggestion } from '@z-engine/protocol'
import type { SideModelPort } from '@z-engine/tools'
import { expiry, sharedDeadlineMs } from './deadline.js'
import type { DecisionMode } from './features.js'
import type { SeamAdvice, SeamInput } from './seam-types.js'
import { ShadowSlots } from './shadow-slots.js'
import type { AnyDecisionUse, DecisionUse, UseContext } from './use.js'

/** Traces kept in memory for `/decisions` (the journal keeps all of them). */
export const MAX_RECENT_TRACES = 200

/** What a session's hub is built from. */
export interface DecisionHubOptions {
  /** Every use, in registration order (advice applies in this order). */
  uses: readonly AnyDecisionUse[]
  /** The `[experimental]` switches; a feature not named is off. */
  modes: Readonly<Record<string, DecisionMode>>
  /** `decisions.timeout_ms`. */
  timeoutMs: number
  /** The decision model; absent: every seam returns at once with no advice. */
  service: SideModelPort | undefined
  /** Journals one trace (a persisted `decisionTraced` event). */
  record(trace: DecisionTrace): Promise<void>
  newId(prefix: string): string
  /** Traces replayed from the journal, oldest first. */
  replayed?: readonly DecisionTrace[]
}

type Ran<S extends DecisionSeam> = { advice: SeamAdvice<S> } | undefined

/**
 * The session's decision layer (spec 000 "Decision seams"): which uses run where, the decision
 * service, the trace, the shadow slots, and what uses remember between seams. A seam nobody joins
 * returns at once; shadow uses run detached in at most four slots and their advice is dropped; on
 * uses share one deadline (2 × timeout + 50 ms) and their advice comes back in registration order.
 * Every failure, timeout or cancellation abstains, so the caller behaves as if the feature were off.
 */
export class DecisionHub {
  readonly slots = new ShadowSlots()
  readonly #options: DecisionHubOptions
  readonly #memory = new Map<string, Map<string, unknown>>()
  readonly #recent: DecisionTrace[]
  readonly #detached = new Set<Promise<unknown>>()
  /** Aborts detached shadow uses when the session closes. */
  readonly #closing = new AbortController()
  /** Suggestions offered and not yet resolved, by id. */
  readonly #suggestions = new Map<string, Suggestion>()

  constructor(options: DecisionHubOptions) {
    this.#options = options
    this.#recent = [...(options.replayed ?? [])].slice(-MAX_RECENT_TRACES)
  }

  /** The mode of a feature (`off` unless `[experimental]` says otherwise). */
  mode(feature: string): DecisionMode {
    return this.#options.modes[feature] ?? 'off'
  }

  /** Whether any running use joins `seam` (callers skip building its input otherwise). */
  joins(seam: DecisionSeam): boolean {
    if (this.#options.service === undefined) return false
    return this.#options.uses.some((use) => use.seam === seam && this.mode(use.feature) !== 'off')
  }

  /** Whether the use of `feature` runs `on` at `seam` (for seams whose advice only one use gives). */
  isOn(feature: string): boolean {
    return this.#options.service !== undefined && this.mode(feature) === 'on'
  }

  /**
   * Consults the uses of `seam`: shadow ones detached, on ones under the shared deadline. Returns
   * the advice of on uses in registration order (abstentions left out). Never throws.
   */
  async consult<S extends DecisionSeam>(
    seam: S,
    input: SeamInput<S>,
    signal?: AbortSignal,
  ): Promise<SeamAdvice<S>[]> {
    if (!this.joins(seam)) return []
    const uses = this.#options.uses.filter(
      (use): use is DecisionUse<S> & AnyDecisionUse => use.seam === seam,
    ) as DecisionUse<S>[]
    const deadlineMs = sharedDeadlineMs(this.#options.timeoutMs)
    const on: DecisionUse<S>[] = []
    for (const use of uses) {
      const mode = this.mode(use.feature)
      if (mode === 'on') on.push(use)
      else if (mode === 'shadow') this.#shadow(use, input, deadlineMs)
    }
    if (on.length === 0) return []
    const deadlineAt = Date.now() + deadlineMs
    const ran = await Promise.all(on.map((use) => this.#run(use, 'on', input, deadlineAt, signal)))
    return ran.flatMap((result) => (result === undefined ? [] : [result.advice]))
  }

  /** The latest traces, oldest first. */
  traces(): readonly DecisionTrace[] {
    return this.#recent
  }

  /** Resolves once every detached shadow use has finished. */
  async settled(): Promise<void> {
    while (this.#detached.size > 0) await Promise.allSettled([...this.#detached])
  }

  /** Stops detached shadow uses (they abstain) and waits for their traces: the session is closing. */
  async close(): Promise<void> {
    this.#closing.abort()
    await this.settled()
  }

  /** Keeps a suggestion until the user accepts or dismisses it (`resolveSuggestion`). */
  offer(suggestion: Suggestion): void {
    this.#suggestions.set(suggestion.id, suggestion)
  }

  /** A pending suggestion, without removing it. */
  suggestion(id: string): Suggestion | undefined {
    return this.#suggestions.get(id)
  }

  /** Removes and returns a pending suggestion (it is resolved now). */
  resolve(id: string): Suggestion | undefined {
    const suggestion = this.#suggestions.get(id)
    this.#suggestions.delete(id)
    return suggestion
  }

  #shadow<S extends DecisionSeam>(use: DecisionUse<S>, input: SeamInput<S>, deadlineMs: number): void {
    if (!this.slots.take()) {
      void this.#trace(use, 'shadow', 'skipped', 0, 'every shadow slot was busy')
      return
    }
    const running = this.#run(use, 'shadow', input, Date.now() + deadlineMs, this.#closing.signal).finally(
      () => {
        this.slots.release()
        this.#detached.delete(running)
      },
    )
    this.#detached.add(running)
  }

  async #run<S extends DecisionSeam>(
    use: DecisionUse<S>,
    mode: 'on' | 'shadow',
    input: SeamInput<S>,
    deadlineAt: number,
    signal: AbortSignal | undefined,
  ): Promise<Ran<S>> {
    const started = Date.now()
    const controller = new AbortController()
    const cancel = () => controller.abort()
    signal?.addEventListener('abort', cancel, { once: true })
    const service = this.#options.service!
    const ctx: UseContext = {
      complete: (prompt) => service.complete(prompt, controller.signal),
      memory: this.#memoryOf(use.feature),
      signal: controller.signal,
    }
    type Settled =
      | { type: 'advice'; advice: SeamAdvice<S> | undefined }
      | { type: 'failed'; message: string }
      | { type: 'timeout' }
    let settled: Settled
    try {
      settled = await Promise.race<Settled>([
        Promise.resolve()
          .then(() => use.decide(input, ctx))
          .then(
            (advice): Settled => ({ type: 'advice', advice }),
            (error: unknown): Settled => ({
              type: 'failed',
              message: error instanceof Error ? error.message : String(error),
            }),
          ),
        expiry(Math.max(0, deadlineAt - Date.now()), controller.signal).then(
          (): Settled => ({ type: 'timeout' }),
        ),
      ])
    } finally {
      controller.abort()
      signal?.removeEventListener('abort', cancel)
    }
    const took = Date.now() - started
    if (signal?.aborted) {
      await this.#trace(
        use,
        mode,
        'abstain',
        took,
        mode === 'on' ? 'cancelled with the turn' : 'the session closed',
      )
      return undefined
    }
    switch (settled.type) {
      case 'timeout':
        await this.#trace(use, mode, 'timeout', took, `no advice within ${deadlineAt - started} ms`)
        return undefined
      case 'failed':
        await this.#trace(use, mode, 'failed', took, settled.message)
        return undefined
      case 'advice': {
        if (settled.advice === undefined) {
          await this.#trace(use, mode, 'abstain', took)
          return undefined
        }
        const said = safeDescribe(use, settled.advice)
        await this.#trace(use, mode, 'advice', took, mode === 'shadow' ? `${said} (shadow: dropped)` : said)
        return mode === 'on' ? { advice: settled.advice } : undefined
      }
      default: {
        const unreachable: never = settled
        throw new Error(`unknown settlement ${JSON.stringify(unreachable)}`)
      }
    }
  }

  async #trace(
    use: AnyDecisionUse | DecisionUse<DecisionSeam>,
    mode: 'on' | 'shadow',
    outcome: DecisionTrace['outcome'],
    durationMs: number,
    detail?: string,
  ): Promise<void> {
    const trace: DecisionTrace = {
      id: this.#options.newId('dt'),
      seam: use.seam,
      feature: use.feature,
      mode,
      outcome,
      durationMs,
      ...(detail !== undefined ? { detail: detail.slice(0, 300) } : {}),
    }
    this.#recent.push(trace)
    if (this.#recent.length > MAX_RECENT_TRACES)
      this.#recent.splice(0, this.#recent.length - MAX_RECENT_TRACES)
    await this.#options.record(trace).catch(() => {})
  }

  #memoryOf(feature: string): Map<string, unknown> {
    let memory = this.#memory.get(feature)
    if (!memory) {
      memory = new Map()
      this.#memory.set(feature, memory)
    }
    return memory
  }
}

function safeDescribe<S extends DecisionSeam>(use: DecisionUse<S>, advice: SeamAdvice<S>): string {
  try {
    return use.describe(advice)
  } catch {
    return 'advice'
  }
}
