import type { TodoItem } from '@z-engine/protocol'
import type { OpenWork } from '../run/completion-guard.js'
import type { SessionCore } from './session-core.js'

/**
 * What the main agent leaves open when it answers without a tool call (the completion guard's
 * facts, spec 004 "Recover and guard"): the todos of this turn not completed — a list from an
 * earlier turn does not hold a question-only turn hostage — and a failing current check.
 */
export function mainOpenWork(session: SessionCore, verificationMark: number): () => Promise<OpenWork> {
  const { state, services } = session
  // TodoWrite replaces the list (interaction-port's updateTodos): another array means this turn wrote one.
  const todosAtStart = state.todos
  return async () => {
    const pendingTodos = state.todos === todosAtStart ? [] : unfinishedTodoLines(state.todos)
    // The turn's badge is failed only when a check's latest run after the last change failed.
    const badge = await services.verification?.badge(verificationMark).catch(() => undefined)
    return {
      pendingTodos,
      ...(badge?.type === 'failed' ? { failingCheck: badge.reason } : {}),
    }
  }
}

/** The todos not completed, one line each (`- [pending] Fix the bug`). */
export function unfinishedTodoLines(todos: readonly TodoItem[]): string[] {
  return todos
    .filter((todo) => todo.status !== 'completed')
    .map((todo) => `- [${todo.status}] ${todo.content}`)
}
