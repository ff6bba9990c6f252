import type { SideModelPort } from '@z-engine/tools'
import type { ModelPort } from '../model/model-port.js'
import { sideModelCompletion } from '../model/side-model.js'

/** Output budget of one decision: advice is a small JSON object. */
export const DECISION_MAX_OUTPUT_TOKENS = 1_024

const SYSTEM =
  'You are the decision service of a coding agent. You advise at one point of its loop. You answer with one JSON object, exactly as asked, and abstain (an empty object) when unsure.'

/**
 * The decision service: the fast model (`decisions.model`, else `model.fast`, else the session's
 * model) behind the side-model port. Every failure throws; the hub turns that into an abstention.
 */
export function decisionService(models: ModelPort, modelRef: () => string): SideModelPort {
  return {
    complete: sideModelCompletion(models, modelRef, {
      system: SYSTEM,
      maxOutputTokens: DECISION_MAX_OUTPUT_TOKENS,
      messageId: 'decision',
      requireText: false,
    }),
  }
}
