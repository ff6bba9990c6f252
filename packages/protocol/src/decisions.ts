/** Advice shapes of the experimental decision seams (spec 000 "Decision seams"). */
import { arr, enums, type Infer, num, obj, str } from './schema/builder.js'

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
