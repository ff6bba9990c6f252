import { arr, bool, enums, type Infer, obj, str, tagged, variant } from './schema/builder.js'
import { CostSchema, UsageSchema } from './usage.js'

/** Schema of {@link VerificationBadge}. */
export const VerificationBadgeSchema = tagged([
  variant(
    'verified',
    { checkId: str() },
    {
      checks: arr(str(), {
        description:
          'Every proving check (test, build, typecheck) whose run since the last change passed, in the order they ran; `checkId` is the last.',
      }),
    },
  ),
  variant('unverified', { reason: str() }),
  variant('failed', { checkId: str(), reason: str() }),
  variant('notApplicable'),
])
/** The verification badge a turn ends with (spec 000 "Verification"). */
export type VerificationBadge = Infer<typeof VerificationBadgeSchema>

/** Schema of {@link TurnOutcome}. */
export const TurnOutcomeSchema = tagged([
  variant('done'),
  variant('interrupted'),
  variant('cancelled'),
  variant('budgetExhausted', { budget: enums(['maxTurns', 'sessionCostCap']) }),
  variant('failed', { error: obj({ code: str(), message: str() }) }),
  variant('incomplete', {
    reason: enums(['emptyAnswer', 'maxTokens', 'failingCheck', 'pendingTodos', 'promisedWork'], {
      description:
        "The final answer was empty, cut off at the output-token limit, or left work open (a check's last run failed, this turn's todos not done, an answer that only promised work), even after one nudge.",
    }),
    message: str(),
  }),
])
/** How a turn ended. A turn that started and never finished replays as `interrupted`. */
export type TurnOutcome = Infer<typeof TurnOutcomeSchema>

/** Schema of {@link TurnSummary}. */
export const TurnSummarySchema = obj({
  turnId: str(),
  outcome: TurnOutcomeSchema,
  usage: UsageSchema,
  cost: CostSchema,
  badge: VerificationBadgeSchema,
  mutated: bool({ description: 'Whether the turn changed files.' }),
})
/** A turn's summary, as recorded when it finishes. */
export type TurnSummary = Infer<typeof TurnSummarySchema>
