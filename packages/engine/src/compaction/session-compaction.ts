import {
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateSystemTokens,
  estimateToolsTokens,
} from '@z-engine/context'
import { compactPrompt } from '@z-engine/prompts'
import type { CompactionTrigger, Message, Settings } from '@z-engine/protocol'
import type { Tool } from '@z-engine/tools'
import type { SessionModels } from '../assembly/model-port.js'
import type { SessionSystemPrompt } from '../assembly/system-prompt.js'
import { collectStream } from '../model/collect.js'
import type { SystemSection } from '../model/types.js'
import { toolSpecsOf } from '../run/tool-specs.js'
import type { SessionCore } from '../session/session-core.js'
import { runSummaryJob, type SummaryJobResult } from './compaction-job.js'
import { relieveContext } from './relieve.js'

/** Rounds that must pass after an automatic summary before another one (overflow excepted). */
export const MIN_ROUNDS_BETWEEN_SUMMARIES = 3

/** What compaction needs from the session around it. */
export interface CompactionDeps {
  session: SessionCore
  /** The main agent's toolset (its descriptions count toward the prompt). */
  tools: readonly Tool[]
  settings: Settings
  models: SessionModels
  system: SessionSystemPrompt
  /** Saves a cleared tool result's original text; returns the artifact path the marker names. */
  spill: (content: string, hint: string) => Promise<string>
  /** Runs PreCompact hooks before summarizing. */
  /** Runs PreCompact hooks; a `blocked` reason stops the compaction. */
  preCompact: (trigger: CompactionTrigger, focus: string) => Promise<{ blocked?: string }>
}

/**
 * Token estimates of messages already measured. Messages are never edited in place (clears and
 * summaries make new ones), so each is estimated once instead of once a round: re-estimating the
 * whole working set before every request made a long turn quadratic (bench/engine-rounds.ts).
 */
const messageTokens = new WeakMap<Message, number>()

function estimateWorkingSet(messages: readonly Message[]): number {
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
 * Context pressure relief and summary compaction for the main agent (spec 003 "Compaction"):
 * micro-clears above half the window, a summary by the fast model above `compact_at_percent`, the
 * same summary for `/compact [focus]`. Results are journaled (`compaction` records) so replay
 * rebuilds the same working set.
 */
export class SessionCompaction {
  #reliefsSinceSummary = Number.POSITIVE_INFINITY
  #warnedThrash = false
  #toolTokens: number | undefined
  #overheadOf: { system: readonly SystemSection[]; tokens: number } | undefined

  constructor(private readonly deps: CompactionDeps) {}

  /** The fast model reference (falls back to the main model). */
  #fastModel(): string {
    const session = this.deps.session
    return this.deps.settings.model.fast ?? session.state.modelRef
  }

  async #complete(prompt: string, signal?: AbortSignal): Promise<string> {
    const resolved = this.deps.models.resolve(this.#fastModel())
    if (!resolved.ok) throw new Error(resolved.message)
    const { model } = resolved
    const result = await collectStream(
      model.client.stream(
        {
          model: model.id,
          system: [
            { text: 'You summarize coding-agent conversations faithfully and concisely.', cacheable: false },
          ],
          tools: [],
          messages: [{ id: 'compact', role: 'user', content: [{ type: 'text', text: prompt }] }],
          maxOutputTokens: Math.min(8_192, model.maxOutputTokens),
        },
        signal,
      ),
    )
    if (!result.ok) throw new Error(result.error.message)
    return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n')
  }

  /** Tokens of the system prompt and tool list, estimated once per system prompt (both are stable). */
  async #overhead(): Promise<number> {
    const system = await this.deps.system.sections()
    if (this.#overheadOf?.system !== system) {
      this.#toolTokens ??= estimateToolsTokens(toolSpecsOf(this.deps.tools))
      this.#overheadOf = { system, tokens: estimateSystemTokens(system) + this.#toolTokens }
    }
    return this.#overheadOf.tokens
  }

  async #summarize(
    messages: readonly Message[],
    tokensBefore: number,
    trigger: CompactionTrigger,
    focus?: string,
  ) {
    const session = this.deps.session
    const window = this.deps.models.info(session.state.modelRef).contextWindow
    return runSummaryJob({
      messages,
      windowTokens: window,
      trigger,
      ...(focus !== undefined ? { focus } : {}),
      instructions: compactPrompt(focus),
      complete: (prompt, signal) => this.#complete(prompt, signal),
      state: { todos: session.state.todos, loadedSkills: [] },
      tokensBefore,
      overheadTokens: await this.#overhead(),
      newId: () => session.newId('m'),
      onStarted: async () => {
        await session.commit({ type: 'compactionStarted', trigger })
        return this.deps.preCompact(trigger, focus ?? '')
      },
    })
  }

  async #record(result: SummaryJobResult): Promise<void> {
    const session = this.deps.session
    if (!result.ok) {
      if (result.reason === 'failed') session.notice('warning', result.message, 'compaction_failed')
      if (result.reason === 'blocked') session.notice('warning', result.message, 'compaction_blocked')
      return
    }
    const firstKept = result.messages[1]?.id ?? result.summaryMessage.id
    await session.commit({
      type: 'compacted',
      marker: result.marker,
      summary: result.summaryMessage,
      firstKeptMessageId: firstKept,
    })
    session.state.workingSet.splice(0, session.state.workingSet.length, ...result.messages)
    // The repo map is rebuilt after a compaction (its ranking follows the files touched so far).
    this.deps.system.invalidate()
  }

  /** Relieves pressure before a request; `force` after the provider said the prompt is too long. */
  async relieve(workingSet: Message[], force: boolean): Promise<void> {
    const session = this.deps.session
    this.#reliefsSinceSummary += 1
    const window = this.deps.models.info(session.state.modelRef).contextWindow
    const overhead = await this.#overhead()
    const measure = (messages: readonly Message[]) => overhead + estimateWorkingSet(messages)
    let summary: SummaryJobResult | null = null
    const result = await relieveContext({
      messages: workingSet,
      windowTokens: window,
      measure,
      compactAtPercent: this.deps.settings.context.compact_at_percent,
      keepRecentToolResults: this.deps.settings.context.keep_recent_tool_results,
      overflow: force,
      spill: (clear) => this.deps.spill(clear.original, `${clear.toolName}-${clear.toolUseId}`),
      summarize: async (messages, tokensBefore) => {
        // Still above the threshold right after a summary: summarizing every round would only burn
        // the fast model. Wait a few rounds (a provider overflow still forces one).
        if (!force && this.#reliefsSinceSummary <= MIN_ROUNDS_BETWEEN_SUMMARIES) {
          if (!this.#warnedThrash) {
            this.#warnedThrash = true
            session.notice(
              'warning',
              'The context is still nearly full right after compacting. Raise model.context_window if the model allows it, or start a new session for unrelated work.',
              'compaction_thrash',
            )
          }
          return { ok: false, reason: 'nothing_to_summarize', message: 'summarized moments ago' }
        }
        summary = await this.#summarize(messages, tokensBefore, 'auto')
        if (summary.ok) this.#reliefsSinceSummary = 0
        return summary
      },
    })
    for (const warning of result.warnings) session.notice('warning', warning)
    if (summary) await this.#record(summary)
    else if (result.cleared > 0) workingSet.splice(0, workingSet.length, ...result.messages)
  }

  /** `/compact [focus]`: summarizes now, whatever the pressure. */
  async compactNow(focus?: string): Promise<void> {
    const session = this.deps.session
    const messages = session.state.workingSet
    const result = await this.#summarize(
      messages,
      (await this.#overhead()) + estimateMessagesTokens(messages),
      'manual',
      focus,
    )
    if (!result.ok && result.reason === 'nothing_to_summarize') session.notice('info', result.message)
    await this.#record(result)
  }
}
