/** What the agent asks the user outside of approvals: structured questions and plan reviews. */

import { PermissionModeSchema } from './permission.js'
import { arr, bool, type Infer, obj, str, tagged, variant } from './schema/builder.js'

/** Schema of {@link QuestionOption}. */
export const QuestionOptionSchema = obj({ label: str({ minLength: 1 }) }, { description: str() })
/** One choice of a question. */
export type QuestionOption = Infer<typeof QuestionOptionSchema>

/** Schema of {@link Question}. */
export const QuestionSchema = obj(
  {
    question: str({ minLength: 1 }),
    header: str({ description: 'A short chip label for the question.' }),
    options: arr(QuestionOptionSchema),
    multiSelect: bool(),
  },
  {
    freeText: bool({
      description:
        'False for a closed choice (a yes/no consent): only the options answer it, no typed answer is offered. Absent or true: the user may type another answer.',
    }),
  },
)
/** One question of an AskUserQuestion call (or the engine's own); the user may type another answer unless `freeText` is false. */
export type Question = Infer<typeof QuestionSchema>

/** Schema of {@link QuestionRequest}. */
export const QuestionRequestSchema = obj(
  { id: str({ minLength: 1 }), toolUseId: str(), questions: arr(QuestionSchema, { minItems: 1 }) },
  { agentId: str() },
)
/** Questions the agent is waiting on (AskUserQuestion). */
export type QuestionRequest = Infer<typeof QuestionRequestSchema>

/** Schema of {@link QuestionAnswer}. */
export const QuestionAnswerSchema = obj(
  { question: str(), selected: arr(str({ description: 'Labels of chosen options.' })) },
  { other: str({ description: 'Free text the user typed instead of, or besides, an option.' }) },
)
/** The answer to one question. */
export type QuestionAnswer = Infer<typeof QuestionAnswerSchema>

/** Schema of {@link QuestionResponse}. */
export const QuestionResponseSchema = tagged([
  variant('answered', { answers: arr(QuestionAnswerSchema) }),
  variant('dismissed'),
])
/** The user's reply to a question request: answers in question order, or dismissed. */
export type QuestionResponse = Infer<typeof QuestionResponseSchema>

/** Schema of {@link PlanProposal}. */
export const PlanProposalSchema = obj({ id: str({ minLength: 1 }), toolUseId: str(), markdown: str() })
/** A plan the agent proposes to leave plan mode with (ExitPlanMode). */
export type PlanProposal = Infer<typeof PlanProposalSchema>

/** Schema of {@link PlanDecision}. */
export const PlanDecisionSchema = tagged([
  variant('approve', { mode: PermissionModeSchema }),
  variant('reject', {}, { feedback: str() }),
])
/** Approve (leaving plan mode for `mode`) or keep planning with optional feedback. */
export type PlanDecision = Infer<typeof PlanDecisionSchema>
