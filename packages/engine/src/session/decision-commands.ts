import type { Command, Message } from '@z-engine/protocol'
import { isTaskViewIndex } from '../decisions/seams/task-view-plan.js'
import type { SessionCore } from './session-core.js'

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
 * `includeFullHistory`: ends the task view in use, so the next request sends the full history. The
 * restoring view (`restored: true`) is journaled first and the working set rebuilt from the journal,
 * exactly as replay will rebuild it. Only between turns: a view changes only at a turn boundary.
 */
export async function includeFullHistory(
  core: SessionCore,
  session: { busy(): boolean; replayWorkingSet: (() => Promise<Message[]>) | undefined },
): Promise<void> {
  const inUse = isTaskViewIndex(core.state.workingSet[0])
  if (!inUse || session.replayWorkingSet === undefined) {
    core.notice(
      'info',
      'No task view is in use: every request already sends the full history.',
      'full_history',
    )
    return
  }
  if (session.busy()) {
    core.notice('warning', 'Wait for the turn to end before restoring the full history.', 'busy')
    return
  }
  await core.commit({
    type: 'taskViewApplied',
    view: { id: core.newId('tv'), keptMessageIds: [], restored: true },
  })
  const messages = await session.replayWorkingSet()
  core.state.workingSet.splice(0, core.state.workingSet.length, ...messages)
}
