import { reminderText, wrapReminder } from '@z-engine/prompts'
import type { StopReason } from '../model/types.js'
import { promisedWorkSentence } from './promised-work.js'

/**
 * Nudges a run may spend on each kind of unacceptable final answer before it ends `incomplete`
 * (spec 004 "Agent Loop": recover and guard, then finalize with a structured incomplete reason).
 * One per reason: a run nudged about an empty answer may still be nudged once about pending todos.
 */
export const MAX_COMPLETION_NUDGES = 1

/** Why a final answer was not accepted. */
export type IncompleteReason = 'emptyAnswer' | 'maxTokens' | 'failingCheck' | 'pendingTodos' | 'promisedWork'

/** Work the run's host knows is still open when the model ends without a tool call. */
export interface OpenWork {
  /** This turn's todos not completed, one line each (`- [pending] …`). Empty: none. */
  pendingTodos: string[]
  /** A check whose latest run since the turn's last change failed, as one line. */
  failingCheck?: string
}

/** What the completion guard decided about a response without tool calls. */
export type CompletionVerdict =
  | { type: 'accept' }
  | { type: 'nudge'; reason: IncompleteReason; text: string }
  | { type: 'incomplete'; reason: IncompleteReason; message: string }

/** One response without tool calls, as the guard sees it. */
export interface CompletionInput {
  stopReason: StopReason
  /** The response's text blocks joined and trimmed (thinking does not count as an answer). */
  finalText: string
  /** Nudges this run already spent, per reason. */
  nudgesUsed: Readonly<Partial<Record<IncompleteReason, number>>>
  /** The output-token limit the request was sent with (named in the nudge). */
  maxOutputTokens: number
  /** What the host knows is unfinished; absent: nothing. */
  openWork?: OpenWork
}

/** A reason found in an answer, with the nudge's text and the message if it ends the run. */
interface Finding {
  reason: IncompleteReason
  nudge: string
  message: string
}

/**
 * Judges a final answer (pure), first finding wins: cut off at the output-token limit, empty, a
 * failing last check, todos of this turn still open, an answer that only promises work. The first
 * such answer of a run (per reason) earns a nudge; after that the run ends `incomplete`.
 */
export function judgeCompletion(input: CompletionInput): CompletionVerdict {
  const finding = findProblem(input)
  if (finding === undefined) return { type: 'accept' }
  if ((input.nudgesUsed[finding.reason] ?? 0) < MAX_COMPLETION_NUDGES)
    return { type: 'nudge', reason: finding.reason, text: wrapReminder(finding.nudge) }
  return { type: 'incomplete', reason: finding.reason, message: finding.message }
}

function findProblem(input: CompletionInput): Finding | undefined {
  const limit = input.maxOutputTokens
  if (input.stopReason === 'max_tokens')
    return {
      reason: 'maxTokens',
      nudge: reminderText('answerCutOff', { limit: String(limit) }),
      message: incompleteMessage('maxTokens', limit),
    }
  if (input.finalText === '')
    return {
      reason: 'emptyAnswer',
      nudge: reminderText('emptyAnswer', {}),
      message: incompleteMessage('emptyAnswer', limit),
    }
  const failing = input.openWork?.failingCheck
  if (failing !== undefined)
    return {
      reason: 'failingCheck',
      nudge: reminderText('checkFailing', { failure: failing }),
      message: `The turn ended with a failing check after a nudge to fix it: ${failing}. Ask the agent to fix it, or run the check yourself.`,
    }
  const todos = input.openWork?.pendingTodos ?? []
  if (todos.length > 0)
    return {
      reason: 'pendingTodos',
      nudge: reminderText('todosPending', { todos: todos.join('\n') }),
      message: `The turn ended with ${todos.length} ${todos.length === 1 ? 'todo' : 'todos'} not done after a nudge to finish them:\n${todos.join('\n')}\nAsk the agent to continue, or see /todos.`,
    }
  const sentence = promisedWorkSentence(input.finalText)
  if (sentence !== undefined)
    return {
      reason: 'promisedWork',
      nudge: reminderText('promisedWork', { sentence }),
      message: `The answer only promised work ("${sentence}") without doing it, again after a nudge. Ask the agent to continue.`,
    }
  return undefined
}

/** The message an `incomplete` outcome of an empty or cut-off answer carries: what happened and what the user can do. */
export function incompleteMessage(reason: 'emptyAnswer' | 'maxTokens', maxOutputTokens: number): string {
  switch (reason) {
    case 'maxTokens':
      return `The answer was cut off at the output-token limit (${maxOutputTokens} tokens) again after a nudge to continue. Ask for the rest, or raise model.max_output_tokens.`
    case 'emptyAnswer':
      return 'The model returned an empty answer again after a nudge to continue. Send the request again or try another model.'
    default: {
      const unreachable: never = reason
      return unreachable
    }
  }
}
