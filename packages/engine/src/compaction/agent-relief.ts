import { estimateMessageTokens, type PlannedClear } from '@z-engine/context'
import type { Message } from '@z-engine/protocol'
import type { Tool } from '@z-engine/tools'
import type { SystemSection } from '../model/types.js'
import type { SummaryJobResult } from './compaction-job.js'
import { relieveContext } from './relieve.js'

/** Rounds that must pass after an automatic summary before another one (overflow excepted). */
export const MIN_ROUNDS_BETWEEN_SUMMARIES = 3

/** The provider's prompt size for the last request and the working set that request sent. */
export interface ReportedPrompt {
  /** Uncached input plus cache reads and writes, as the provider reported them. */
  promptTokens: number
  /** The messages the request sent (the working set's first `messages.length` entries then). */
  messages: readonly Message[]
}

/** What a subagent's relief needs: its id, model, and the stable parts of its requests. */
export interface SubagentCompactionTarget {
  agentId: string
  modelRef: string
  system: readonly SystemSection[]
  tools: readonly Tool[]
}

/** The relieve function an agent's run host calls before each request. */
export type AgentReliefFn = (
  workingSet: Message[],
  force: boolean,
  reported?: ReportedPrompt,
) => Promise<void>

/** What one relief needs from the agent it relieves. */
export interface ReliefTarget {
  windowTokens: number
  /** Estimated tokens of the system sections and tool specs. */
  overhead(): Promise<number>
  summarize(messages: readonly Message[], tokensBefore: number): Promise<SummaryJobResult>
  /** Records a summary's outcome (applies the compacted working set when it succeeded). */
  record(result: SummaryJobResult): Promise<void>
  /** Replaces the working set after clears alone. */
  apply(messages: Message[]): void
  notice(level: 'info' | 'warning', message: string, code?: string): void
  /** Saves a cleared result; returns the artifact path. */
  spill(original: string, hint: string): Promise<string>
  compactAtPercent?: number
  keepRecentToolResults?: number
  /** The context-pressure decision seam's review of the planned clears (keeping wins). */
  reviewClears?: (planned: readonly PlannedClear[]) => Promise<readonly PlannedClear[]>
}

/**
 * Token estimates of messages already measured. Messages are never edited in place (clears and
 * summaries make new ones), so each is estimated once instead of once a round: re-estimating the
 * whole working set before every request made a long turn quadratic (bench/engine-rounds.ts).
 */
const messageTokens = new WeakMap<Message, number>()

function estimateMessages(messages: readonly Message[]): number {
  let total = 0
  for (const message of messages) {
    let tokens = messageTokens.get(message)
    if (tokens === undefined) {
      tokens = estimateMessageTokens(message)
      messageTokens.set(message, tokens)
    }
    total += tokens
  }
  return total
}

/**
 * How full a working set is (spec 003 "The context window and token estimates"): the provider's
 * report for the last request plus estimates of the messages added since, while the working set
 * still starts with exactly what that request sent; otherwise all estimated. The larger of the
 * report-based figure and the estimate wins, so a provider that counts more than the local estimate
 * (images, dense code, other scripts) triggers relief on time, and a partial report never delays it.
 */
export function measureWorkingSet(
  messages: readonly Message[],
  overhead: number,
  reported: ReportedPrompt | undefined,
): number {
  const estimated = overhead + estimateMessages(messages)
  if (!reported || reported.promptTokens <= 0 || reported.messages.length > messages.length) return estimated
  for (let index = 0; index < reported.messages.length; index++) {
    if (reported.messages[index] !== messages[index]) return estimated
  }
  const fromReport = reported.promptTokens + estimateMessages(messages.slice(reported.messages.length))
  return Math.max(fromReport, estimated)
}

/**
 * One agent's pressure relief across its rounds (the main agent and each subagent have their own):
 * clears above half the window, a summary above `compact_at_percent`, and no summary again within
 * {@link MIN_ROUNDS_BETWEEN_SUMMARIES} rounds of the last attempt unless the provider overflowed.
 */
export class AgentRelief {
  #reliefsSinceSummary = Number.POSITIVE_INFINITY
  #warnedThrash = false

  async relieve(
    workingSet: Message[],
    force: boolean,
    reported: ReportedPrompt | undefined,
    target: ReliefTarget,
  ): Promise<void> {
    this.#reliefsSinceSummary += 1
    const overhead = await target.overhead()
    let summary: SummaryJobResult | null = null
    const result = await relieveContext({
      ...(target.reviewClears ? { reviewClears: target.reviewClears } : {}),
      messages: workingSet,
      windowTokens: target.windowTokens,
      measure: (messages) => measureWorkingSet(messages, overhead, reported),
      ...(target.compactAtPercent !== undefined ? { compactAtPercent: target.compactAtPercent } : {}),
      ...(target.keepRecentToolResults !== undefined
        ? { keepRecentToolResults: target.keepRecentToolResults }
        : {}),
      overflow: force,
      spill: (clear) => target.spill(clear.original, `${clear.toolName}-${clear.toolUseId}`),
      summarize: async (messages, tokensBefore) => {
        // Still above the threshold right after a summary: summarizing every round would only burn
        // the fast model. Wait a few rounds (a provider overflow still forces one).
        if (!force && this.#reliefsSinceSummary <= MIN_ROUNDS_BETWEEN_SUMMARIES) {
          if (!this.#warnedThrash) {
            this.#warnedThrash = true
            target.notice(
              'warning',
              'The context is still nearly full right after compacting. Raise model.context_window if the model allows it, or start a new session for unrelated work.',
              'compaction_thrash',
            )
          }
          return { ok: false, reason: 'nothing_to_summarize', message: 'summarized moments ago' }
        }
        summary = await target.summarize(messages, tokensBefore)
        // A summary that did not shrink anything counts as an attempt too: retrying it every round
        // would ask the fast model for the same useless summary.
        if (summary.ok || summary.reason === 'no_gain') this.#reliefsSinceSummary = 0
        return summary
      },
    })
    for (const warning of result.warnings) target.notice('warning', warning)
    if (summary) {
      await target.record(summary)
      // A summary that was not applied still leaves the clears to keep.
      if (!(summary as SummaryJobResult).ok && result.cleared > 0) target.apply(result.messages)
    } else if (result.cleared > 0) target.apply(result.messages)
  }
}
