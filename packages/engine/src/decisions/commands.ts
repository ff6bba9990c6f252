import type { Command } from '@z-engine/protocol'
import type { SessionCore } from '../session/session-core.js'

/**
 * `resolveSuggestion`: accepts or dismisses a pending suggestion. An accepted prompt suggestion
 * starts its turn (after the running one: accepting while busy is refused and the suggestion kept).
 */
export async function resolveSuggestion(
  core: SessionCore,
  command: Extract<Command, { type: 'resolveSuggestion' }>,
  session: { busy(): boolean; startTurn(text: string): void },
): Promise<void> {
  const hub = core.services.decisions
  const pending = hub?.suggestion(command.suggestionId)
  if (hub === undefined || pending === undefined) {
    core.notice(
      'warning',
      `No pending suggestion '${command.suggestionId}'; it was already resolved, or never offered in this session.`,
      'unknown_suggestion',
    )
    return
  }
  if (command.accepted && pending.kind === 'prompt' && session.busy()) {
    core.notice('warning', 'Wait for the turn to end before accepting this suggestion.', 'busy')
    return
  }
  hub.resolve(command.suggestionId)
  await core.commit({ type: 'suggestionResolved', suggestionId: pending.id, accepted: command.accepted })
  if (command.accepted && pending.kind === 'prompt') session.startTurn(pending.text)
}

/**
 * `includeFullHistory`: drops the task view so the next request sends the full history. No use
 * builds task views yet, so there is never one to drop; the answer says so.
 */
export function includeFullHistory(core: SessionCore): void {
  core.notice('info', 'No task view is in use: every request already sends the full history.', 'full_history')
}
