import type {
  ContentBlock,
  Cost,
  EngineEvent,
  Message,
  MessageOrigin,
  ToolSpec,
  Usage,
} from '@z-engine/protocol'
import type { BatchCall, BatchOutcome } from '../batch/batch-types.js'
import type { ReportedPrompt } from '../compaction/agent-relief.js'
import type { ModelError, ModelRequest, RoundModel, SystemSection } from '../model/types.js'
import { type IncompleteReason, judgeCompletion, type OpenWork } from './completion-guard.js'
import { FailureTracker } from './failure-tracker.js'
import { streamRound } from './stream-round.js'

/** What the stop boundary decided: end the run, or continue with a user message. */
export type StopDecision =
  | { type: 'end' }
  | { type: 'continue'; content: ContentBlock[]; origin: MessageOrigin }

/** Everything one agent run needs from its session (or parent agent); all I/O is injected. */
export interface RunHost {
  model(): RoundModel
  /**
   * The model to switch to when `model()` is still overloaded after its retries (Claude Code's
   * `--fallback-model`); called once, and the rest of the run uses it. Absent or undefined: none.
   */
  fallbackModel?(): RoundModel | undefined
  system(): Promise<SystemSection[]>
  tools(): ToolSpec[]
  /** The working set sent to the model; the host owns it and `append` extends it. */
  workingSet(): Message[]
  /** Journals a message, adds it to the working set, publishes `messageRecorded`. */
  append(message: Message, origin: MessageOrigin): Promise<void>
  emit(event: EngineEvent): Promise<void>
  /** Records one request's usage; returns its cost. */
  recordUsage(usage: Usage, model: string): Promise<Cost>
  /**
   * Clears or summarizes old history when the context is under pressure; `force` after an overflow.
   * `reported` is the provider's prompt size for the previous request and what it sent.
   */
  relievePressure(force: boolean, reported?: ReportedPrompt): Promise<void>
  runBatch(calls: BatchCall[], signal: AbortSignal): Promise<BatchOutcome>
  /**
   * The before-a-request decision seam (screen_request): new tool results as they may be sent,
   * applied before they join the working set so no sent message is ever rewritten. Absent: as is.
   */
  screenResults?(content: ContentBlock[], signal: AbortSignal): Promise<ContentBlock[]>
  /** Steering messages and reminders queued since the last user message (drained). */
  takeFollowUps(): ContentBlock[]
  /**
   * Work still open when the model answers without a tool call (this turn's unfinished todos, a
   * failing last check), for the completion guard. Absent: none known.
   */
  openWork?(): Promise<OpenWork>
  /** The stop boundary: hooks, steering, verification (spec 000 "Stop boundary"). */
  stopBoundary(finalText: string, mutated: boolean): Promise<StopDecision>
  /** Budget checks before each round. */
  budgetExceeded(roundsDone: number): 'maxTurns' | 'sessionCostCap' | undefined
  newId(prefix: string): string
  /**
   * Called as each request is handed to the model client (its fetch under way on this tick), so the
   * host can start work the request must not wait for (the main agent's checkpoint).
   */
  requestStarted?(): void
}

/** How an agent run ended. */
export type RunOutcome =
  | { type: 'done'; finalText: string; mutated: boolean; changedFiles: string[]; rounds: number }
  | { type: 'cancelled'; mutated: boolean; changedFiles: string[]; rounds: number }
  | {
      type: 'budgetExhausted'
      budget: 'maxTurns' | 'sessionCostCap'
      mutated: boolean
      changedFiles: string[]
      rounds: number
    }
  | { type: 'failed'; error: ModelError; mutated: boolean; changedFiles: string[]; rounds: number }
  /** The final answer was empty, cut off, or left work open (todos, a failing check, a promise), even after a nudge. */
  | {
      type: 'incomplete'
      reason: IncompleteReason
      message: string
      /** Whatever text the last response had (possibly cut off). */
      finalText: string
      mutated: boolean
      changedFiles: string[]
      rounds: number
    }

function finalTextOf(content: ContentBlock[]): string {
  return content
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('\n')
    .trim()
}

/**
 * Runs rounds until the stop boundary ends the run (spec 000 "One round"): budgets, pressure
 * relief, request, stream, record, then the tool batch or the stop boundary. A context overflow
 * forces relief and exactly one retry; a main model still overloaded after its retries hands the
 * round, and the rest of the run, to the host's fallback model when it has one. The transcript stays valid on every exit: each tool_use is
 * answered before the run returns.
 */
export async function runAgent(host: RunHost, signal: AbortSignal): Promise<RunOutcome> {
  let rounds = 0
  let mutated = false
  const changedFiles = new Set<string>()
  let overflowRetried = false
  // Once the main model stayed overloaded, the fallback serves every later round of this run.
  let fallback: RoundModel | undefined
  const completionNudges: Partial<Record<IncompleteReason, number>> = {}
  const failures = new FailureTracker()
  let reported: ReportedPrompt | undefined
  const outcome = <T extends object>(extra: T) => ({
    ...extra,
    mutated,
    changedFiles: [...changedFiles],
    rounds,
  })

  for (;;) {
    if (signal.aborted) return outcome({ type: 'cancelled' as const })
    const exhausted = host.budgetExceeded(rounds)
    if (exhausted) return outcome({ type: 'budgetExhausted' as const, budget: exhausted })

    await host.relievePressure(false, reported)
    const model = fallback ?? host.model()
    const request: ModelRequest = {
      model: model.id,
      system: await host.system(),
      tools: host.tools(),
      messages: host.workingSet(),
      maxOutputTokens: model.maxOutputTokens,
      ...(model.reasoning ? { reasoning: model.reasoning } : {}),
    }
    // What this request sends, for the context meter once its usage is reported.
    const sent = request.messages.slice()
    const streaming = streamRound(
      model.client,
      request,
      (event) => host.emit(event),
      () => host.newId('p'),
      signal,
    )
    host.requestStarted?.()
    const streamed = await streaming
    if (!streamed.ok) {
      if (signal.aborted || streamed.error.kind === 'aborted') return outcome({ type: 'cancelled' as const })
      if (streamed.error.kind === 'context_overflow' && !overflowRetried) {
        overflowRetried = true
        await host.relievePressure(true, reported)
        continue
      }
      if (streamed.error.kind === 'overloaded' && fallback === undefined) {
        fallback = host.fallbackModel?.()
        // The round is sent again on the fallback (nothing of the failed one was recorded).
        if (fallback !== undefined && fallback.id !== model.id) continue
      }
      return outcome({ type: 'failed' as const, error: streamed.error })
    }
    overflowRetried = false
    rounds += 1
    const { end } = streamed
    await host.recordUsage(end.usage, model.id)
    reported = {
      promptTokens: end.usage.inputTokens + end.usage.cacheReadTokens + end.usage.cacheWriteTokens,
      messages: sent,
    }

    // Providers reject an empty assistant turn on the next request; keep the transcript sendable.
    const content: ContentBlock[] =
      end.content.length > 0 ? end.content : [{ type: 'text', text: '(no response)' }]
    await host.append({ id: host.newId('m'), role: 'assistant', content }, 'assistant')

    const toolUses = content.filter((block) => block.type === 'tool_use')
    if (toolUses.length === 0) {
      // An empty, cut-off or unfinished answer is not a finished turn: nudge once, then end incomplete.
      const verdict = judgeCompletion({
        stopReason: end.stopReason,
        finalText: finalTextOf(end.content),
        nudgesUsed: completionNudges,
        maxOutputTokens: model.maxOutputTokens,
        ...(host.openWork ? { openWork: await host.openWork() } : {}),
      })
      if (verdict.type === 'nudge') {
        completionNudges[verdict.reason] = (completionNudges[verdict.reason] ?? 0) + 1
        await host.append(
          { id: host.newId('m'), role: 'user', content: [{ type: 'text', text: verdict.text }] },
          'reminder',
        )
        continue
      }
      if (verdict.type === 'incomplete')
        return outcome({
          type: 'incomplete' as const,
          reason: verdict.reason,
          message: verdict.message,
          finalText: finalTextOf(end.content),
        })
      const decision = await host.stopBoundary(finalTextOf(content), mutated)
      if (decision.type === 'end') return outcome({ type: 'done' as const, finalText: finalTextOf(content) })
      await host.append({ id: host.newId('m'), role: 'user', content: decision.content }, decision.origin)
      continue
    }

    const parseErrors = new Map(end.toolCallErrors.map((error) => [error.id, error]))
    const calls: BatchCall[] = toolUses.map((block) => {
      const parseError = parseErrors.get(block.id)
      return parseError === undefined ? { block } : { block, parseError: parseError.message }
    })
    const batch = await host.runBatch(calls, signal)
    if (batch.mutated) mutated = true
    for (const file of batch.changedFiles) changedFiles.add(file)
    // Malformed arguments get one repair message; the same call failing again is pointed out.
    const tracked = failures.observe(
      calls.map((call, index) => ({
        ...call,
        ...(parseErrors.has(call.block.id) ? { argsText: parseErrors.get(call.block.id)!.argsText } : {}),
        status: batch.statuses[index] ?? 'error',
        result: batch.results[index]!,
      })),
      request.tools,
    )
    const guardNotes: ContentBlock[] = signal.aborted
      ? []
      : tracked.reminders.map((text): ContentBlock => ({ type: 'text', text }))
    // One user message: every result in call order, then queued steering and reminders.
    const results = host.screenResults ? await host.screenResults(tracked.results, signal) : tracked.results
    await host.append(
      {
        id: host.newId('m'),
        role: 'user',
        content: [...results, ...guardNotes, ...(signal.aborted ? [] : host.takeFollowUps())],
      },
      'toolResults',
    )
  }
}
