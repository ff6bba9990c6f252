import {
  applyMicroClear,
  clearedMarker,
  DEFAULT_COMPACT_AT_PERCENT,
  type PlannedClear,
  planMicroClear,
  pressureLevel,
} from '@z-engine/context'
import type { Message } from '@z-engine/protocol'
import type { SummaryJobResult } from './compaction-job.js'

/** Inputs of {@link relieveContext}, one round's worth. */
export interface RelieveInput {
  messages: readonly Message[]
  windowTokens: number
  /** Measures a working set as the next request would be (the meter, reset after clearing). */
  measure: (messages: readonly Message[]) => number
  /** `context.compact_at_percent` (default 92). */
  compactAtPercent?: number
  /** `context.keep_recent_tool_results` (default 8). */
  keepRecentToolResults?: number
  /** The provider said the request is too long: run both steps whatever the estimate says. */
  overflow?: boolean
  /**
   * Saves a cleared result's original text to the session's artifacts and returns the path the
   * marker should name. A failed spill keeps that result as it is.
   */
  spill: (clear: PlannedClear) => Promise<string>
  /**
   * The pressure decision seam: may drop planned clears (keep those results) or add clears of other
   * results (e.g. from `planMicroClear` with `keepRecent: 0, force: true`). Absent: the plan stands.
   */
  reviewClears?: (planned: readonly PlannedClear[]) => Promise<readonly PlannedClear[]>
  /** Runs the summary job (see `runSummaryJob`) on the cleared working set. */
  summarize: (messages: readonly Message[], tokensBefore: number) => Promise<SummaryJobResult>
}

/** What relief did this round. */
export interface RelieveResult {
  /** The working set to send (unchanged when nothing was needed or everything failed). */
  messages: Message[]
  /** Tool results turned into markers. */
  cleared: number
  /** The summary job's outcome, when it ran. */
  summary: SummaryJobResult | null
  /** Spill failures; the results concerned were left in place. */
  warnings: string[]
}

/**
 * Relieves context pressure before a round (spec 003 "Compaction"): above half the window clear old
 * tool results, then, if still above `compact_at_percent`, summarize older history. On provider
 * overflow both run regardless; the caller retries the request once.
 */
export async function relieveContext(input: RelieveInput): Promise<RelieveResult> {
  const compactAt = input.compactAtPercent ?? DEFAULT_COMPACT_AT_PERCENT
  const warnings: string[] = []
  let messages = input.messages.slice()
  let used = input.measure(messages)
  const clearInput = {
    messages,
    usedTokens: used,
    windowTokens: input.windowTokens,
    force: input.overflow ?? false,
  }
  const plan = planMicroClear(
    input.keepRecentToolResults === undefined
      ? clearInput
      : { ...clearInput, keepRecent: input.keepRecentToolResults },
  )
  const clears = input.reviewClears ? await input.reviewClears(plan.clears) : plan.clears
  const applied: { messageIndex: number; blockIndex: number; marker: string }[] = []
  for (const clear of clears) {
    try {
      applied.push({ ...clear, marker: clearedMarker(clear, await input.spill(clear)) })
    } catch (error) {
      warnings.push(
        `Could not save the output of ${clear.toolName} (${clear.toolUseId}) to artifacts (${String(error)}); kept it in context.`,
      )
    }
  }
  if (applied.length > 0) {
    messages = applyMicroClear(messages, applied)
    used = input.measure(messages)
  }
  let summary: SummaryJobResult | null = null
  if (input.overflow || pressureLevel(used, input.windowTokens, compactAt) === 'compact') {
    summary = await input.summarize(messages, used)
    if (summary.ok) messages = summary.messages
  }
  return { messages, cleared: applied.length, summary, warnings }
}
