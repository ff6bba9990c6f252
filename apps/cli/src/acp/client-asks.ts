import { type AgentContext, methods } from '@agentclientprotocol/sdk'
import type { Session } from '@z-engine/engine'
import type {
  ApprovalRequest,
  PlanProposal,
  QuestionAnswer,
  QuestionRequest,
  QuestionResponse,
} from '@z-engine/protocol'
import {
  formAnswers,
  optionAnswer,
  planDecision,
  planOptions,
  planToolCall,
  questionForm,
  questionOptions,
} from './interactions.js'
import { decisionFor, permissionOptions } from './permission-options.js'
import { previewContent, toolKind } from './session-updates.js'

/** What the engine waits on and the client is being asked about, by card id: each one's withdrawal. */
export type Asking = Map<string, AbortController>

/**
 * One card the engine waits on, asked of the client. `asking` holds the cards still waiting: when
 * the engine settles one itself (the turn was cancelled), the request is withdrawn with
 * `$/cancel_request` and its late answer dropped. A failed request (the client went away) gets
 * `onFailure`'s answer, which fails closed.
 */
function askClient<T>(
  asking: Asking,
  id: string,
  ask: (signal: AbortSignal) => Promise<T>,
  onFailure: () => T,
  settle: (answer: T) => void,
): void {
  const withdraw = new AbortController()
  asking.set(id, withdraw)
  void ask(withdraw.signal)
    .catch(onFailure)
    .then((answer) => {
      if (asking.delete(id)) settle(answer)
    })
}

/** An approval card as `session/request_permission`; no answer denies. */
export function askPermission(
  client: AgentContext,
  session: Session,
  request: ApprovalRequest,
  asking: Asking,
): void {
  askClient(
    asking,
    request.id,
    async (signal) => {
      const response = await client.request(
        methods.client.session.requestPermission,
        {
          sessionId: session.id,
          toolCall: {
            toolCallId: request.toolUseId,
            title: request.title,
            kind: toolKind(request.toolName),
            status: 'pending',
            content: previewContent(request.preview),
          },
          options: permissionOptions(request),
        },
        { cancellationSignal: signal },
      )
      return decisionFor(request, response.outcome)
    },
    () => decisionFor(request, { outcome: 'cancelled' }),
    (decision) => session.send({ type: 'resolveApproval', approvalId: request.id, decision }),
  )
}

/**
 * An AskUserQuestion call's questions: one form when the client fills in forms, else one permission
 * request per question (its options, and a skip). A skip or a failure dismisses the questions.
 */
export function askQuestions(
  client: AgentContext,
  session: Session,
  request: QuestionRequest,
  asking: Asking,
  formElicitation: boolean,
): void {
  const dismissed = (): QuestionResponse => ({ type: 'dismissed' })
  askClient(
    asking,
    request.id,
    async (signal): Promise<QuestionResponse> => {
      const options = { cancellationSignal: signal }
      if (formElicitation)
        return formAnswers(
          request,
          await client.request(methods.client.elicitation.create, questionForm(session.id, request), options),
        )
      const answers: QuestionAnswer[] = []
      for (const question of request.questions) {
        const response = await client.request(
          methods.client.session.requestPermission,
          {
            sessionId: session.id,
            toolCall: {
              toolCallId: request.toolUseId,
              title: question.question,
              kind: 'other',
              status: 'pending',
            },
            options: questionOptions(question),
          },
          options,
        )
        const answer = optionAnswer(question, response.outcome)
        if (answer === undefined) return dismissed()
        answers.push(answer)
      }
      return { type: 'answered', answers }
    },
    dismissed,
    (response) => session.send({ type: 'answerQuestion', questionId: request.id, response }),
  )
}

/** A proposed plan (ExitPlanMode) as a permission request; anything but an approval keeps planning. */
export function askPlan(client: AgentContext, session: Session, plan: PlanProposal, asking: Asking): void {
  askClient(
    asking,
    plan.id,
    async (signal) => {
      const response = await client.request(
        methods.client.session.requestPermission,
        { sessionId: session.id, toolCall: planToolCall(plan), options: planOptions() },
        { cancellationSignal: signal },
      )
      return planDecision(response.outcome)
    },
    () => planDecision({ outcome: 'cancelled' }),
    (decision) => session.send({ type: 'resolvePlan', planId: plan.id, decision }),
  )
}
