import type { AnyDecisionUse } from './use.js'
import { answerFromHistory } from './uses/answer-from-history.js'
import { attention } from './uses/attention.js'
import { callNotes } from './uses/call-notes.js'
import { checkSelect } from './uses/check-select.js'
import { completionClaims } from './uses/completion-claims.js'
import { nextStep } from './uses/next-step.js'
import { pressureTriage } from './uses/pressure-triage.js'
import { relevance } from './uses/relevance.js'
import { reviewCall } from './uses/review-call.js'
import { routeChoice } from './uses/route-choice.js'
import { screenRequest } from './uses/screen-request.js'
import { stopReview } from './uses/stop-review.js'
import { taskView } from './uses/task-view.js'
import { turnBrief } from './uses/turn-brief.js'
import { turnTone } from './uses/turn-tone.js'

/**
 * Every decision use, one per `decisions_*` feature, in registration order: where several uses
 * advise at one seam, their advice applies in this order.
 */
export const USES: readonly AnyDecisionUse[] = [
  turnBrief,
  pressureTriage,
  screenRequest,
  reviewCall,
  callNotes,
  relevance,
  stopReview,
  answerFromHistory,
  routeChoice,
  completionClaims,
  checkSelect,
  turnTone,
  nextStep,
  attention,
  taskView,
]

/** Every registered feature name, in registration order. */
export const DECISION_FEATURES: readonly string[] = USES.map((use) => use.feature)
