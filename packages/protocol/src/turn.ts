import type { Cost, Usage } from './usage.js'

/** The verification badge a turn ends with (spec 000 "Verification"). */
export type VerificationBadge =
  | { type: 'verified'; checkId: string }
  | { type: 'unverified'; reason: string }
  | { type: 'failed'; checkId: string; reason: string }
  | { type: 'notApplicable' }

/** How a turn ended. */
export type TurnOutcome =
  | { type: 'done' }
  | { type: 'interrupted' }
  | { type: 'cancelled' }
  | { type: 'budgetExhausted'; budget: 'maxTurns' | 'sessionCostCap' }
  | { type: 'failed'; error: { code: string; message: string } }

/** A turn's summary, as recorded when it finishes. */
export interface TurnSummary {
  turnId: string
  outcome: TurnOutcome
  usage: Usage
  cost: Cost
  badge: VerificationBadge
  /** Whether the turn changed files. */
  mutated: boolean
}
