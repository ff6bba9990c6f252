import {
  applySummary,
  buildSummaryMessage,
  buildSummaryPrompt,
  type CompactionState,
  compactionMarker,
  estimateMessagesTokens,
  loadedSkillsIn,
  mergeLoadedSkills,
  planSummary,
  renderTranscript,
} from '@z-engine/context'
import type { CompactionMarker, CompactionTrigger, Message } from '@z-engine/protocol'

/** Asks the fast model for a completion of one prompt (the engine binds model and settings). */
export type CompletePrompt = (prompt: string, signal?: AbortSignal) => Promise<string>

/** Inputs of {@link runSummaryJob}. */
export interface SummaryJobInput {
  /** The working set (what the model is sent), not the stored transcript. */
  messages: readonly Message[]
  windowTokens: number
  trigger: CompactionTrigger
  /** `/compact <focus>`. */
  focus?: string
  /** The compaction instructions: `compactPrompt(focus)` from `@z-engine/prompts`. */
  instructions: string
  complete: CompletePrompt
  /** Todos, plan and loaded skills: kept as data next to the summary. */
  state: CompactionState
  /** The meter's tokens before compacting (for the marker). */
  tokensBefore: number
  /** Estimated tokens of the system sections and tools, added to the messages for `tokensAfter`. */
  overheadTokens: number
  /** Makes message and marker ids. */
  newId: () => string
  /** Overrides the kept-suffix target (default 20% of the window). */
  keepRecentTokens?: number
  /**
   * Called once a split is planned, before the model is asked: emit compactionStarted, run PreCompact
   * hooks. A `blocked` reason (a PreCompact hook's exit 2) stops this compaction.
   */
  onStarted?: () => { blocked?: string } | undefined | Promise<{ blocked?: string } | undefined>
  signal?: AbortSignal
}

/** The job's outcome: a compacted working set, or why it did not happen (the run continues either way). */
export type SummaryJobResult =
  | {
      ok: true
      messages: Message[]
      summaryMessage: Message
      marker: CompactionMarker
      state: CompactionState
    }
  | { ok: false; reason: 'nothing_to_summarize' | 'failed' | 'blocked' | 'no_gain'; message: string }

/**
 * The summary job shared by automatic compaction, provider overflow and `/compact` (spec 003): plan
 * the split, then ask the fast model to summarize the older part, and replace it with one summary
 * message carrying the structured state. Recent messages stay word for word. Never throws; a failure
 * is a value whose message the engine shows as a warning.
 */
export async function runSummaryJob(input: SummaryJobInput): Promise<SummaryJobResult> {
  const plan = planSummary(
    input.keepRecentTokens === undefined
      ? { messages: input.messages, windowTokens: input.windowTokens }
      : {
          messages: input.messages,
          windowTokens: input.windowTokens,
          keepRecentTokens: input.keepRecentTokens,
        },
  )
  if (plan.kind === 'skip')
    return { ok: false, reason: 'nothing_to_summarize', message: `Nothing to compact: ${plan.reason}.` }
  try {
    const started = await input.onStarted?.()
    if (started?.blocked !== undefined)
      return {
        ok: false,
        reason: 'blocked',
        message: `A PreCompact hook stopped the compaction: ${started.blocked}`,
      }
    // Keep the summarizer's input well inside its own window (about four characters a token).
    const maxChars = Math.max(20_000, Math.floor(input.windowTokens * 4 * 0.6))
    const transcript = renderTranscript(input.messages.slice(0, plan.cut), { maxChars })
    const summary = (
      await input.complete(buildSummaryPrompt(input.instructions, transcript), input.signal)
    ).trim()
    if (summary === '') {
      return {
        ok: false,
        reason: 'failed',
        message:
          'Compaction failed: the fast model returned an empty summary; continuing without compacting.',
      }
    }
    // Skills loaded in the summarized part keep their instructions word for word (spec 003).
    const state: CompactionState = {
      ...input.state,
      loadedSkills: mergeLoadedSkills(
        input.state.loadedSkills,
        loadedSkillsIn(input.messages.slice(0, plan.cut)),
      ),
    }
    const summaryMessage = buildSummaryMessage(input.newId(), summary, state)
    const messages = applySummary(input.messages, plan.cut, summaryMessage)
    // Compare like with like (local estimates both sides): a summary that does not shrink the
    // context only loses detail, so it is not applied.
    const estimatedBefore = input.overheadTokens + estimateMessagesTokens(input.messages)
    const tokensAfter = input.overheadTokens + estimateMessagesTokens(messages)
    if (tokensAfter >= estimatedBefore) {
      return {
        ok: false,
        reason: 'no_gain',
        message: `Compaction was not applied: the summary would not shrink the context (about ${estimatedBefore} tokens before, ${tokensAfter} after).`,
      }
    }
    const markerInput = {
      id: input.newId(),
      trigger: input.trigger,
      tokensBefore: input.tokensBefore,
      tokensAfter,
      messagesSummarized: plan.cut,
    }
    const marker = compactionMarker(
      input.focus === undefined ? markerInput : { ...markerInput, focus: input.focus },
    )
    return { ok: true, messages, summaryMessage, marker, state }
  } catch (error) {
    if (input.signal?.aborted) return { ok: false, reason: 'failed', message: 'Compaction was cancelled.' }
    return {
      ok: false,
      reason: 'failed',
      message: `Compaction failed (${error instanceof Error ? error.message : String(error)}); continuing without compacting.`,
    }
  }
}
