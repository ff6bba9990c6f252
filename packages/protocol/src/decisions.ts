/** Advice shapes of the experimental decision seams (spec 000 "Decision seams"). */
import { arr, enums, type Infer, int, num, obj, str } from './schema/builder.js'

/** Schema of {@link Route}. */
export const RouteSchema = obj(
  { reason: str() },
  {
    model: str({ description: 'The model chosen for this turn or agent.' }),
    effort: enums(['low', 'medium', 'high', 'max']),
    agentId: str(),
  },
)
/** Effort or model the route seam chose, within what the task allows. */
export type Route = Infer<typeof RouteSchema>

/** Schema of {@link CompletionClaim}. */
export const CompletionClaimSchema = obj({ text: str() }, { messageId: str() })
/** A claim of completion in the final answer that no check backs. */
export type CompletionClaim = Infer<typeof CompletionClaimSchema>

/** Schema of {@link Suggestion}. */
export const SuggestionSchema = obj(
  { id: str({ minLength: 1 }), kind: str(), text: str() },
  { detail: str(), actions: arr(str()) },
)
/** Something a decision use proposes; the user accepts or dismisses it (resolveSuggestion). */
export type Suggestion = Infer<typeof SuggestionSchema>

/** Schema of {@link TurnTone}. */
export const TurnToneSchema = enums(['positive', 'neutral', 'frustrated', 'confused'])
/** The user's tone in a turn, judged in the background at turn end. */
export type TurnTone = Infer<typeof TurnToneSchema>

/** Schema of {@link Urgency}. */
export const UrgencySchema = obj(
  {
    itemId: str(),
    kind: str({ description: 'What is waiting: approval, question, plan, notification.' }),
    score: num({ minimum: 0, maximum: 1 }),
  },
  { reason: str() },
)
/** How urgently an item needs the user's attention (attention seam). */
export type Urgency = Infer<typeof UrgencySchema>

/** The 13 decision seams (spec 000 "Decision seams"), in the spec's order. */
export const DECISION_SEAMS = [
  'turnStart',
  'contextPressure',
  'beforeRequest',
  'toolGate',
  'afterCall',
  'stopBoundary',
  'askUser',
  'route',
  'completion',
  'checkSelect',
  'relevance',
  'turnEnd',
  'attention',
] as const
/** Schema of {@link DecisionSeam}. */
export const DecisionSeamSchema = enums(DECISION_SEAMS)
/** Where in the engine a decision use is consulted. */
export type DecisionSeam = Infer<typeof DecisionSeamSchema>

/** Schema of {@link DecisionTrace}. */
export const DecisionTraceSchema = obj(
  {
    id: str({ minLength: 1 }),
    seam: DecisionSeamSchema,
    feature: str({ description: 'The decisions_* feature of the use.' }),
    mode: enums(['shadow', 'on']),
    outcome: enums(['advice', 'abstain', 'failed', 'timeout', 'skipped']),
    durationMs: int({ minimum: 0 }),
  },
  {
    detail: str({ description: 'What the use advised, why it abstained, or what failed (short).' }),
  },
)
/**
 * One consultation of one decision use at a seam: its advice (dropped in shadow), abstention,
 * failure, timeout, or (shadow) being skipped because every shadow slot was busy.
 */
export type DecisionTrace = Infer<typeof DecisionTraceSchema>
