import type { PlanDecision, QuestionRequest, QuestionResponse, TodoItem } from '@z-engine/protocol'
import type { InteractionPort, UserQuestion } from '@z-engine/tools'
import { scoreAttentionInBackground } from '../decisions/seams/attention.js'
import type { SessionCore } from './session-core.js'

/** Where an interaction happens: the call that asked, and its turn. */
export interface InteractionScope {
  toolUseId: string
  turnId?: string
  agentId?: string
}

/**
 * The engine's InteractionPort: questions and plan reviews are journaled, published, and wait on the
 * session's brokers (answered by `answerQuestion` / `resolvePlan`); todos are journaled and published.
 */
export function createInteractionPort(session: SessionCore, scope: InteractionScope): InteractionPort {
  const eventScope = {
    ...(scope.turnId !== undefined ? { turnId: scope.turnId } : {}),
    ...(scope.agentId !== undefined ? { agentId: scope.agentId } : {}),
  }
  return {
    async ask(questions: UserQuestion[], signal: AbortSignal) {
      const question: QuestionRequest = {
        id: session.newId('q'),
        toolUseId: scope.toolUseId,
        questions,
        ...(scope.agentId !== undefined ? { agentId: scope.agentId } : {}),
      }
      // Wait first, announce second: a host may answer from inside its event callback.
      const answered = session.questions.wait(question.id, signal)
      await session.commit({ type: 'questionAsked', question }, eventScope)
      void session.services.hooks.notification?.('Z Engine has a question for you').catch(() => {})
      scoreAttentionInBackground(session, {
        itemId: question.id,
        kind: 'question',
        title: questions.map((one) => one.question).join(' / '),
      })
      const outcome = await answered
      const response: QuestionResponse = outcome.type === 'answered' ? outcome.answer : { type: 'dismissed' }
      await session.commit({ type: 'questionAnswered', questionId: question.id, response }, eventScope)
      if (response.type === 'dismissed') return undefined
      return questions.map((asked, index) => {
        const answer =
          response.answers.find((candidate) => candidate.question === asked.question) ??
          response.answers[index]
        if (!answer) return []
        return answer.other !== undefined && answer.other !== ''
          ? [...answer.selected, answer.other]
          : answer.selected
      })
    },
    async proposePlan(markdown: string, signal: AbortSignal) {
      const plan = { id: session.newId('pl'), toolUseId: scope.toolUseId, markdown }
      const reviewed = session.plans.wait(plan.id, signal)
      await session.commit({ type: 'planProposed', plan }, eventScope)
      void session.services.hooks.notification?.('Z Engine has a plan for you to review').catch(() => {})
      const outcome = await reviewed
      const decision: PlanDecision =
        outcome.type === 'answered'
          ? outcome.answer
          : { type: 'reject', feedback: 'The plan review was cancelled.' }
      await session.commit({ type: 'planResolved', planId: plan.id, decision }, eventScope)
      if (decision.type === 'reject') {
        return decision.feedback !== undefined
          ? { approved: false, feedback: decision.feedback }
          : { approved: false }
      }
      session.state.mode = decision.mode
      await session.commit({ type: 'modeChanged', mode: decision.mode })
      return { approved: true, mode: decision.mode }
    },
    async updateTodos(todos: TodoItem[]) {
      session.state.todos = todos
      await session.commit({ type: 'todosUpdated', todos }, eventScope)
    },
  }
}
