import type {
  CreateElicitationRequest,
  CreateElicitationResponse,
  ElicitationPropertySchema,
  PermissionOption,
  RequestPermissionOutcome,
  RequestPermissionRequest,
} from '@agentclientprotocol/sdk'
import type {
  PlanDecision,
  PlanProposal,
  Question,
  QuestionAnswer,
  QuestionRequest,
  QuestionResponse,
} from '@z-engine/protocol'

/** Where the choice of question `index` and its typed answer go in the form. */
const choiceKey = (index: number): string => `q${index + 1}`
const otherKey = (index: number): string => `q${index + 1}_other`

/**
 * AskUserQuestion as an ACP form (`elicitation/create`, for clients that advertise form
 * elicitation): per question a single- or multi-select field of its options, and a text field for
 * another answer, as the chat offers. Nothing is required: an empty field means no choice.
 */
export function questionForm(sessionId: string, request: QuestionRequest): CreateElicitationRequest {
  const properties: Record<string, ElicitationPropertySchema> = {}
  request.questions.forEach((question, index) => {
    const options = question.options.map((option) => ({
      const: option.label,
      title: option.label,
      ...(option.description !== undefined ? { description: option.description } : {}),
    }))
    properties[choiceKey(index)] = question.multiSelect
      ? {
          type: 'array',
          title: question.header || question.question,
          description: question.question,
          items: { anyOf: options },
        }
      : {
          type: 'string',
          title: question.header || question.question,
          description: question.question,
          oneOf: options,
        }
    if (question.freeText !== false)
      properties[otherKey(index)] = {
        type: 'string',
        title: 'Other answer',
        description: `Type your own answer to: ${question.question}`,
      }
  })
  return {
    sessionId,
    toolCallId: request.toolUseId,
    mode: 'form',
    message:
      request.questions.length === 1
        ? (request.questions[0]?.question ?? 'The agent has a question.')
        : `The agent has ${request.questions.length} questions.`,
    requestedSchema: { type: 'object', properties },
  }
}

/** The engine's reply for the client's form answer: only offered labels count; decline or cancel dismisses. */
export function formAnswers(request: QuestionRequest, response: CreateElicitationResponse): QuestionResponse {
  if (response.action !== 'accept') return { type: 'dismissed' }
  const content = (response.content ?? {}) as Record<string, unknown>
  const answers = request.questions.map((question, index) => {
    const chosen = content[choiceKey(index)]
    const picked = Array.isArray(chosen) ? chosen : chosen === undefined ? [] : [chosen]
    return answerOf(question, picked, content[otherKey(index)])
  })
  return answers.every((answer) => answer.selected.length === 0 && answer.other === undefined)
    ? { type: 'dismissed' }
    : { type: 'answered', answers }
}

function answerOf(question: Question, picked: readonly unknown[], other: unknown): QuestionAnswer {
  const labels = new Set(question.options.map((option) => option.label))
  const selected = picked.filter((label): label is string => typeof label === 'string' && labels.has(label))
  const kept = question.multiSelect ? selected : selected.slice(0, 1)
  const typed = typeof other === 'string' ? other.trim() : ''
  return { question: question.question, selected: kept, ...(typed !== '' ? { other: typed } : {}) }
}

/**
 * One question as an ACP permission request, for clients without form elicitation: one option per
 * choice and a way to skip. A multi-select question takes one choice this way.
 */
export function questionOptions(question: Question): PermissionOption[] {
  return [
    ...question.options.map(
      (option, index): PermissionOption => ({
        optionId: `choice${index}`,
        name: option.label,
        kind: 'allow_once',
      }),
    ),
    { optionId: 'skip', name: 'Skip the question', kind: 'reject_once' },
  ]
}

/** The answer for the option the client chose; undefined when the user skipped or the request was cancelled. */
export function optionAnswer(
  question: Question,
  outcome: RequestPermissionOutcome,
): QuestionAnswer | undefined {
  if (outcome.outcome !== 'selected') return undefined
  const match = /^choice(\d+)$/.exec(outcome.optionId)
  const option = match ? question.options[Number(match[1])] : undefined
  return option ? { question: question.question, selected: [option.label] } : undefined
}

/** ExitPlanMode's choices in ACP terms, as editors show Claude Code's: start with edits accepted or asked, or keep planning. */
export function planOptions(): PermissionOption[] {
  return [
    { optionId: 'acceptEdits', name: 'Yes, and auto-accept edits', kind: 'allow_always' },
    { optionId: 'default', name: 'Yes, and manually approve edits', kind: 'allow_once' },
    { optionId: 'keepPlanning', name: 'No, keep planning', kind: 'reject_once' },
  ]
}

/** The plan decision for the client's answer; anything but an approval keeps planning (fail closed). */
export function planDecision(outcome: RequestPermissionOutcome): PlanDecision {
  if (outcome.outcome === 'selected' && outcome.optionId === 'acceptEdits')
    return { type: 'approve', mode: 'acceptEdits' }
  if (outcome.outcome === 'selected' && outcome.optionId === 'default')
    return { type: 'approve', mode: 'default' }
  return {
    type: 'reject',
    ...(outcome.outcome === 'cancelled' ? { feedback: 'The plan was not answered in the editor.' } : {}),
  }
}

/** The plan as the permission request's tool call: its markdown as content. */
export function planToolCall(plan: PlanProposal): RequestPermissionRequest['toolCall'] {
  return {
    toolCallId: plan.toolUseId,
    title: 'Ready to code?',
    kind: 'switch_mode',
    status: 'pending',
    content: [{ type: 'content', content: { type: 'text', text: plan.markdown } }],
  }
}
