import { PROTOCOL_VERSION } from '@z-engine/protocol'
import type { SessionGate } from '../gate/session-gate.js'
import type { EventHub } from '../session/event-hub.js'
import type { SessionState } from '../session/state.js'
import type { LoadedInstructions } from '../workspace/instructions/instructions-load.js'
import type { LoadedSettings } from '../workspace/settings/load-settings.js'

/** Publishes a `notice` event of the session (`code` names its subject). */
export type Notify = (level: 'info' | 'warning' | 'error', message: string, code?: string) => void

/** The session's notice publisher. */
export function sessionNotifier(hub: EventHub): Notify {
  return (level, message, code) =>
    hub.publish({ type: 'notice', level, message, ...(code !== undefined ? { code } : {}) })
}

/** What {@link announceSessionOpened} reports on. */
export interface OpenedSessionFacts {
  sessionId: string
  projectRoot: string
  resumed: boolean
  state: SessionState
  loaded: LoadedSettings
  /** What replaying a resumed session's log skipped. */
  replayProblems: readonly string[]
  gate: SessionGate
  instructions: LoadedInstructions
}

/**
 * `sessionOpened`, then what the user should know from the start, in this order: settings notices,
 * unreadable log lines, unreadable permission rules, instruction warnings, and `trustRequired`
 * when the project withholds categories.
 */
export function announceSessionOpened(hub: EventHub, notice: Notify, facts: OpenedSessionFacts): void {
  const { state, loaded, gate } = facts
  hub.publish({
    type: 'sessionOpened',
    sessionId: facts.sessionId,
    projectRoot: facts.projectRoot,
    mode: state.mode,
    model: state.modelRef,
    resumed: facts.resumed,
    protocolVersion: PROTOCOL_VERSION,
    ...(state.title !== undefined ? { title: state.title } : {}),
  })
  for (const settingsNotice of loaded.notices)
    notice(settingsNotice.severity, settingsNotice.message, 'settings')
  const problems = facts.replayProblems
  if (problems.length > 0)
    notice(
      'warning',
      `The session log has ${problems.length} line(s) that could not be read; the conversation continues without them: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? `; and ${problems.length - 3} more ('z-engine sessions show ${facts.sessionId}' lists them)` : ''}.`,
      'replay',
    )
  const unparsed = new Set(gate.unparsedRules.map((entry) => entry.error))
  for (const error of gate.ruleErrors) {
    // A broken deny or ask rule fails closed (what it may cover asks); a broken allow rule is ignored.
    const effect = unparsed.has(error) ? 'until it is fixed, the calls it may cover ask' : 'it is ignored'
    notice(
      'warning',
      `Permission rule ${error.text} from ${error.source} cannot be read (${error.message}); ${effect}`,
      'rule',
    )
  }
  for (const warning of facts.instructions.warnings) notice('warning', warning, 'instructions')
  if (loaded.trustRequired.length > 0) {
    hub.publish({ type: 'trustRequired', projectRoot: facts.projectRoot, categories: loaded.trustRequired })
  }
}
