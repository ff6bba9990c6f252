import type { Settings } from '@z-engine/protocol'
import { decisionService } from '../decisions/decision-service.js'
import { anyDecisionFeature } from '../decisions/features.js'
import { DecisionHub } from '../decisions/hub.js'
import { DECISION_FEATURES, USES } from '../decisions/registry.js'
import type { SessionCore } from '../session/session-core.js'

/**
 * The session's DecisionHub, or undefined when every `decisions_*` feature is off (then every seam
 * is skipped without a call). The decision model is `decisions.model`, else `model.fast`, else the
 * session's model; its traces are journaled in the turn they belong to.
 */
export function openDecisionHub(core: SessionCore, settings: Settings): DecisionHub | undefined {
  if (!anyDecisionFeature(settings.experimental, DECISION_FEATURES)) return undefined
  const { state } = core
  return new DecisionHub({
    uses: USES,
    modes: settings.experimental,
    timeoutMs: settings.decisions.timeout_ms,
    service: decisionService(
      core.services.models,
      () => settings.decisions.model ?? settings.model.fast ?? state.modelRef,
    ),
    record: (trace) =>
      core.commit(
        { type: 'decisionTraced', trace },
        state.activeTurn !== undefined ? { turnId: state.activeTurn.id } : {},
      ),
    newId: core.newId,
    replayed: state.decisionTraces,
  })
}
