import type { TurnOutcome, VerificationBadge } from '@z-engine/protocol'
import { EXIT } from '../cli-error.js'
import type { LineTable } from './stream-json-lines.js'
import { snakeUsage } from './stream-json-session-lines.js'
import type { StreamJsonEvent, StreamOutcome, StreamVerification } from './stream-json-types.js'
import { turnExitCode } from './turn-exit-code.js'

/** The stream-json name of a turn outcome. */
export function streamOutcome(outcome: TurnOutcome): StreamOutcome {
  switch (outcome.type) {
    case 'done':
    case 'failed':
    case 'interrupted':
    case 'cancelled':
      return outcome.type
    case 'budgetExhausted':
      return 'budget_exhausted'
    case 'incomplete':
      return 'incomplete'
    default: {
      const unreachable: never = outcome
      return unreachable
    }
  }
}

/** The stream-json form of a verification badge. */
export function streamVerification(badge: VerificationBadge): StreamVerification {
  switch (badge.type) {
    case 'verified':
      return {
        status: 'verified',
        check_id: badge.checkId,
        ...(badge.checks !== undefined ? { check_ids: badge.checks } : {}),
      }
    case 'failed':
      return { status: 'failed', check_id: badge.checkId, reason: badge.reason }
    case 'unverified':
      return { status: 'unverified', reason: badge.reason }
    case 'notApplicable':
      return { status: 'not_applicable' }
    default: {
      const unreachable: never = badge
      return unreachable
    }
  }
}

/** The main agent's turn ends in `final` (after an `error` line when it failed); a subagent's in nothing. */
export const TURN_LINES = {
  turnFinished: (event, { common, agentId, state }) => {
    if (agentId !== undefined) return []
    const result = state.lastAssistantText
    state.lastAssistantText = ''
    const outcome = event.outcome
    const denied = state.denials.take()
    const lines: StreamJsonEvent[] = []
    if (outcome.type === 'failed')
      lines.push({ type: 'error', ...common, code: outcome.error.code, message: outcome.error.message })
    lines.push({
      type: 'final',
      ...common,
      turn_id: event.turnId,
      outcome: streamOutcome(outcome),
      result,
      usage: snakeUsage(event.usage),
      cost_usd: event.cost.totalUsd,
      verification: streamVerification(event.badge),
      is_error: turnExitCode(event, denied.mutating) !== EXIT.ok,
      permission_denials: denied.denials,
      ...(outcome.type === 'budgetExhausted' ? { budget: outcome.budget } : {}),
      ...(outcome.type === 'failed' ? { error: { ...outcome.error } } : {}),
      ...(outcome.type === 'incomplete'
        ? { incomplete: { reason: outcome.reason, message: outcome.message } }
        : {}),
    })
    return lines
  },
} satisfies Partial<LineTable>
