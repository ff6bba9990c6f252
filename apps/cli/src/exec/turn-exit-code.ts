import type { EventOf, TurnOutcome } from '@z-engine/protocol'
import { EXIT } from '../cli-error.js'

/** The exit code of a finished turn (spec: 0 done, 1 failed, 3 budget exhausted, 5 incomplete, 130 interrupted). */
export function exitCodeOf(outcome: TurnOutcome): number {
  switch (outcome.type) {
    case 'done':
      return EXIT.ok
    case 'failed':
      return EXIT.failed
    case 'budgetExhausted':
      return EXIT.budget
    case 'incomplete':
      return EXIT.incomplete
    case 'interrupted':
    case 'cancelled':
      return EXIT.interrupted
    default: {
      const unreachable: never = outcome
      return unreachable
    }
  }
}

/**
 * The exit code of a turn, given how many of its denied calls would have changed something: a
 * turn that ended `done` having changed nothing while changes it tried were denied did not do its
 * job, and says so (exit 4, `is_error`), instead of reporting success.
 */
export function turnExitCode(finished: EventOf<'turnFinished'>, mutatingDenied: number): number {
  const code = exitCodeOf(finished.outcome)
  if (code === EXIT.ok && mutatingDenied > 0 && !finished.mutated) return EXIT.denied
  return code
}
