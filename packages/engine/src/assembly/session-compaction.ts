import { estimateMessagesTokens, estimateSystemTokens, estimateToolsTokens } from '@z-engine/context'
import { compactPrompt } from '@z-engine/prompts'
import type { CompactionTrigger, Message, Settings } from '@z-engine/protocol'
import type { Tool } from '@z-engine/tools'
import {
  AgentRelief,
  type AgentReliefFn,
  measureWorkingSet,
  type ReportedPrompt,
  type SubagentCompactionTarget,
} from '../compaction/agent-relief.js'
import { runSummaryJob, type SummaryJobResult } from '../compaction/compaction-job.js'
import { pressureReview } from '../decisions/seams/context-pressure.js'
import { sideModelCompletion } from '../model/side-model.js'
import type { SystemSection } from '../model/types.js'
import { toolSpecsOf } from '../run/tool-specs.js'
import type { SessionCore } from '../session/session-core.js'
import type { SessionModels } from './model-port.js'
import type { SessionSystemPrompt } from './system-prompt.js'

export { MIN_ROUNDS_BETWEEN_SUMMARIES } from '../compaction/agent-relief.js'

/** Output tokens a summary may use. */
const SUMMARY_MAX_OUTPUT_TOKENS = 8_192

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
  /** PostCompact hooks, once a summary of the main agent's history was recorded. */
  postCompact?: (trigger: CompactionTrigger, summary: string) => Promise<void>
}

/**
 * Context pressure relief and summary compaction for the main agent (spec 003 "Compaction"):
 * micro-clears above half the window, a summary by the fast model above `compact_at_percent`, the
 * same summary for `/compact [focus]`. Results are journaled (`compaction` records) so replay
 * rebuilds the same working set.
 */
export class SessionCompaction {
  readonly #main = new AgentRelief()
  #toolTokens: number | undefined
  #overheadOf: { system: readonly SystemSection[]; tokens: number } | undefined

  /** The summary call: the side model (the fast model) with the summarizer's own system text. */
  readonly #complete: (prompt: string, signal?: AbortSignal) => Promise<string>

  constructor(private readonly deps: CompactionDeps) {
    this.#complete = sideModelCompletion(deps.models, () => this.#fastModel(), {
      system: 'You summarize coding-agent conversations faithfully and concisely.',
      maxOutputTokens: SUMMARY_MAX_OUTPUT_TOKENS,
      messageId: 'compact',
      requireText: false,
    })
  }

  /** The fast model reference (falls back to the main model). */
  #fastModel(): string {
    const session = this.deps.session
    return this.deps.settings.model.fast ?? session.state.modelRef
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
      complete: this.#complete,
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
      if (result.reason === 'no_gain') session.notice('info', result.message, 'compaction_no_gain')
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
    const summary = result.summaryMessage.content
      .flatMap((block) => (block.type === 'text' ? [block.text] : []))
      .join('\n')
    await this.deps.postCompact?.(result.marker.trigger, summary)
  }

  /**
   * Relieves the main agent's pressure before a request; `force` after the provider said the prompt
   * is too long. `reported` is the provider's prompt size for the last request, when it gave one.
   */
  async relieve(workingSet: Message[], force: boolean, reported?: ReportedPrompt): Promise<void> {
    const session = this.deps.session
    const window = this.deps.models.info(session.state.modelRef).contextWindow
    // The context-pressure decision seam may keep planned clears or add more (keeping wins).
    const decisions = session.services.decisions
    const reviewClears = decisions?.joins('contextPressure')
      ? pressureReview(
          decisions,
          workingSet,
          window,
          measureWorkingSet(workingSet, await this.#overhead(), reported),
        )
      : undefined
    await this.#main.relieve(workingSet, force, reported, {
      windowTokens: window,
      ...(reviewClears ? { reviewClears } : {}),
      overhead: () => this.#overhead(),
      summarize: (messages, tokensBefore) => this.#summarize(messages, tokensBefore, 'auto'),
      record: (result) => this.#record(result),
      apply: (messages) => workingSet.splice(0, workingSet.length, ...messages),
      notice: (level, message, code) => session.notice(level, message, code),
      spill: (original, hint) => this.deps.spill(original, hint),
      compactAtPercent: this.deps.settings.context.compact_at_percent,
      keepRecentToolResults: this.deps.settings.context.keep_recent_tool_results,
    })
  }

  /**
   * Pressure relief for a subagent (spec 003: subagents compact the same way): clears and summaries
   * edit only its working set; its stored transcript keeps every message, so a resume starts from
   * the full history. Returns the relieve function its run host calls before each request.
   */
  agentRelief(agent: SubagentCompactionTarget): AgentReliefFn {
    const session = this.deps.session
    const relief = new AgentRelief()
    const overhead = {
      tokens: estimateSystemTokens(agent.system) + estimateToolsTokens(toolSpecsOf(agent.tools)),
    }
    const notice = (level: 'info' | 'warning', message: string, code?: string) =>
      session.publish(
        { type: 'notice', level, message: `Agent ${agent.agentId}: ${message}`, ...(code ? { code } : {}) },
        { agentId: agent.agentId },
      )
    return (workingSet, force, reported) =>
      relief.relieve(workingSet, force, reported, {
        windowTokens: this.deps.models.info(agent.modelRef).contextWindow,
        overhead: async () => overhead.tokens,
        summarize: async (messages, tokensBefore) =>
          runSummaryJob({
            messages,
            windowTokens: this.deps.models.info(agent.modelRef).contextWindow,
            trigger: 'auto',
            instructions: compactPrompt(undefined),
            complete: this.#complete,
            state: { todos: [], loadedSkills: [] },
            tokensBefore,
            overheadTokens: overhead.tokens,
            newId: () => session.newId('m'),
            onStarted: () => this.deps.preCompact('auto', ''),
          }),
        record: async (result) => {
          if (result.ok) workingSet.splice(0, workingSet.length, ...result.messages)
          else if (result.reason !== 'nothing_to_summarize')
            notice('warning', result.message, `compaction_${result.reason}`)
        },
        apply: (messages) => workingSet.splice(0, workingSet.length, ...messages),
        notice,
        spill: (original, hint) => this.deps.spill(original, hint),
        compactAtPercent: this.deps.settings.context.compact_at_percent,
        keepRecentToolResults: this.deps.settings.context.keep_recent_tool_results,
      })
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
