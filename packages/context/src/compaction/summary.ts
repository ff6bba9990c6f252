import type { Message } from '@z-engine/protocol'
import { estimateMessageTokens } from '../tokens.js'

/** Share of the window kept word for word after a summary when no `keepRecentTokens` is given. */
export const DEFAULT_KEEP_RECENT_SHARE = 0.2

/** The fewest messages a summary may replace. */
export const MIN_SUMMARIZED_MESSAGES = 2

/** The fewest messages kept word for word after the cut. */
export const MIN_KEPT_MESSAGES = 2

/** Inputs of {@link planSummary}. */
export interface SummaryPlanInput {
  messages: readonly Message[]
  windowTokens: number
  /** Estimated tokens the kept suffix must reach to be "enough" (default 20% of the window). */
  keepRecentTokens?: number
}

/** Where to cut the working set for a summary, or why there is nothing to summarize. */
export type SummaryPlan =
  | {
      kind: 'split'
      /** Messages before this index are summarized; it and everything after stay word for word. */
      cut: number
      /** Estimated tokens of the summarized messages. */
      summarizedTokens: number
      /** Estimated tokens of the kept messages. */
      keptTokens: number
      /** False when no cut keeps `keepRecentTokens`; then the earliest valid cut is used. */
      keepsEnough: boolean
    }
  | { kind: 'skip'; reason: string }

/**
 * Plans a summary split (spec 003 "Compaction", step 3). A cut goes at the start of a real user
 * turn (a user message without tool results) or at any assistant message, so a long agentic turn may
 * be split in the middle, but never between a tool call and its result. The latest cut whose kept
 * suffix holds at least `keepRecentTokens` and {@link MIN_KEPT_MESSAGES} messages wins; when none
 * does (a short transcript, or `/compact` early on), the earliest valid cut is used so as much as
 * possible stays word for word. Fewer than {@link MIN_SUMMARIZED_MESSAGES} messages are never
 * summarized.
 */
export function planSummary(input: SummaryPlanInput): SummaryPlan {
  const { messages } = input
  const count = messages.length
  if (count < MIN_SUMMARIZED_MESSAGES + 1) {
    return { kind: 'skip', reason: `only ${count} messages; nothing older to summarize` }
  }
  const keepRecentTokens =
    input.keepRecentTokens ?? Math.floor(input.windowTokens * DEFAULT_KEEP_RECENT_SHARE)

  // crossing[i] > 0 when a cut at i would put a tool call before it and its result after it.
  const crossing = new Int32Array(count + 1)
  const callAt = new Map<string, number>()
  const tokens = new Float64Array(count)
  for (let index = 0; index < count; index++) {
    const message = messages[index]!
    tokens[index] = estimateMessageTokens(message)
    for (const block of message.content) {
      if (block.type === 'tool_use') callAt.set(block.id, index)
      else if (block.type === 'tool_result') {
        const call = callAt.get(block.toolUseId)
        if (call !== undefined && call < index) {
          crossing[call + 1]! += 1
          crossing[index + 1]! -= 1
        }
      }
    }
  }
  let open = 0
  const valid = new Uint8Array(count)
  for (let index = 0; index < count; index++) {
    open += crossing[index]!
    valid[index] = open === 0 && isCutPoint(messages[index]!) ? 1 : 0
  }

  let kept = 0
  let earliest = -1
  let earliestKept = 0
  let total = 0
  for (let index = 0; index < count; index++) total += tokens[index]!
  for (let index = count - 1; index >= MIN_SUMMARIZED_MESSAGES; index--) {
    kept += tokens[index]!
    if (!valid[index]) continue
    if (count - index >= MIN_KEPT_MESSAGES && kept >= keepRecentTokens) {
      return {
        kind: 'split',
        cut: index,
        summarizedTokens: total - kept,
        keptTokens: kept,
        keepsEnough: true,
      }
    }
    earliest = index
    earliestKept = kept
  }
  if (earliest < 0) {
    return { kind: 'skip', reason: 'no place to cut that keeps every tool call with its result' }
  }
  return {
    kind: 'split',
    cut: earliest,
    summarizedTokens: total - earliestKept,
    keptTokens: earliestKept,
    keepsEnough: false,
  }
}

/** A cut may go before an assistant message or before a user message that holds no tool results. */
function isCutPoint(message: Message): boolean {
  if (message.role === 'assistant') return true
  return !message.content.some((block) => block.type === 'tool_result')
}
