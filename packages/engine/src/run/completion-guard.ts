import { reminderText, wrapReminder } from '@z-engine/prompts'
import type { StopReason } from '../model/types.js'

/**
 * Nudges a run may spend on unacceptable final answers before it ends `incomplete` (spec 004
 * "Agent Loop": an empty or cut-off answer is nudged once, then the run stops with the reason).
 */
export const MAX_COMPLETION_NUDGES = 1

/** Why a final answer was not accepted. */
export type IncompleteReason = 'emptyAnswer' | 'maxTokens'

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
  /** Nudges this run already spent. */
  nudgesUsed: number
  /** The output-token limit the request was sent with (named in the nudge). */
  maxOutputTokens: number
}

/**
 * Judges a final answer (pure): cut off at the output-token limit, or empty, is not a successful
 * turn. The first such answer of a run earns a nudge; after that the run ends `incomplete`.
 */
export function judgeCompletion(input: CompletionInput): CompletionVerdict {
  const reason: IncompleteReason | undefined =
    input.stopReason === 'max_tokens' ? 'maxTokens' : input.finalText === '' ? 'emptyAnswer' : undefined
  if (reason === undefined) return { type: 'accept' }
  if (input.nudgesUsed < MAX_COMPLETION_NUDGES) {
    const text =
      reason === 'maxTokens'
        ? reminderText('answerCutOff', { limit: String(input.maxOutputTokens) })
        : reminderText('emptyAnswer', {})
    return { type: 'nudge', reason, text: wrapReminder(text) }
  }
  return { type: 'incomplete', reason, message: incompleteMessage(reason, input.maxOutputTokens) }
}

/** The message an `incomplete` outcome carries: what happened and what the user can do. */
export function incompleteMessage(reason: IncompleteReason, maxOutputTokens: number): string {
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
