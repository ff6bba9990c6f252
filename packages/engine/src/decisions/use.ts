import type { DecisionSeam } from '@z-engine/protocol'
import type { SeamAdvice, SeamInput } from './seam-types.js'

/** What a use gets while it decides: the decision model, its memory, and its deadline. */
export interface UseContext {
  /** One prompt to the decision model (the fast model), answered as text; throws on any failure. */
  complete(prompt: string): Promise<string>
  /** What this use remembers between seams (per session). */
  memory: Map<string, unknown>
  /** Aborted at the shared deadline or with the turn. */
  signal: AbortSignal
}

/** One decision use: a `decisions_*` feature acting at one seam. */
export interface DecisionUse<S extends DecisionSeam = DecisionSeam> {
  /** The `[experimental]` switch, `decisions_*`. */
  feature: string
  seam: S
  /** One line for docs and `/decisions`. */
  summary: string
  /** Advice, or undefined to abstain. Throwing counts as a failure (which also abstains). */
  decide(input: SeamInput<S>, ctx: UseContext): Promise<SeamAdvice<S> | undefined>
  /** A short description of advice for the trace. */
  describe(advice: SeamAdvice<S>): string
}

/** Any use, whatever its seam. */
export type AnyDecisionUse = { [S in DecisionSeam]: DecisionUse<S> }[DecisionSeam]
