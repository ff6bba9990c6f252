import type { ToolResultContent } from '@z-engine/protocol'
import type { ToolResult } from '@z-engine/tools'
import type { BatchDeps } from './batch-types.js'
import {
  appliedDiff,
  CANCELLED_TEXT,
  type CallState,
  outputText,
  resultContent,
  settle,
  textResult,
} from './call-state.js'
import { createProgressThrottle } from './progress-throttle.js'

/** What the batch's calls share as they run: a hook's stop, and what the calls changed. */
export interface BatchRun {
  deps: BatchDeps
  signal: AbortSignal
  /** A hook's `continue: false`: no further call of the batch runs, and the turn stops after it. */
  stop: string | undefined
  changedFiles: string[]
  mutated: boolean
}

/**
 * Runs one ready call: `toolStarted`, throttled progress, the tool, PostToolUse hooks and the
 * after-call seam's notes around its result, then `toolFinished`. A call already settled is left.
 */
export async function executeCall(state: CallState, run: BatchRun): Promise<void> {
  const { deps, signal } = run
  const { prepared, call } = state
  if (prepared.kind !== 'ready' || state.result) return
  const toolUseId = call.block.id
  if (signal.aborted) {
    await settle(state, 'cancelled', CANCELLED_TEXT, deps)
    return
  }
  if (run.stop !== undefined) {
    await settle(state, 'cancelled', `Not run: a hook stopped the turn (${run.stop})`, deps)
    return
  }
  const started = Date.now()
  await deps.emit({
    type: 'toolStarted',
    toolUseId,
    toolName: prepared.tool.name,
    title: prepared.title,
    input: prepared.input,
  })
  const throttle = createProgressThrottle((update) => {
    if (update.message !== undefined) {
      void deps.emit({
        type: 'toolProgress',
        toolUseId,
        progress: { type: 'status', message: update.message },
      })
    }
    if (update.output !== undefined) {
      void deps.emit({
        type: 'toolProgress',
        toolUseId,
        progress: { type: 'output', stream: 'stdout', text: update.output },
      })
    }
  })
  let result: ToolResult
  try {
    const ctx = deps.toolCtx(toolUseId, (update) => throttle.push(update))
    result = await prepared.tool.call(
      prepared.input,
      {
        ...ctx,
        ...(prepared.realPaths ? { decidedRealPaths: prepared.realPaths } : {}),
        ...(prepared.confinement ? { confinement: prepared.confinement } : {}),
      },
      signal,
    )
  } catch (error) {
    result = {
      ok: false,
      error: {
        code: 'internal',
        message: `${prepared.tool.name} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
      },
    }
  }
  throttle.flush()
  if (signal.aborted) {
    state.status = 'cancelled'
    state.result = textResult(toolUseId, CANCELLED_TEXT, true)
  } else {
    await recordResult(state, result, run)
  }
  const diff = signal.aborted ? undefined : appliedDiff(result)
  await deps.emit({
    type: 'toolFinished',
    toolUseId,
    toolName: prepared.tool.name,
    status: state.status ?? 'error',
    durationMs: Date.now() - started,
    output: outputText(state.result!.content),
    ...(diff !== undefined ? { diff } : {}),
  })
}

/** A finished call's result: what it changed, then PostToolUse context and the after-call seam's notes. */
async function recordResult(state: CallState, result: ToolResult, run: BatchRun): Promise<void> {
  const { deps, signal } = run
  const { prepared } = state
  if (prepared.kind !== 'ready') return
  const toolUseId = state.call.block.id
  const { content, isError } = resultContent(result)
  state.status = isError ? 'error' : 'ok'
  if (result.ok) {
    run.changedFiles.push(...(result.output.changedFiles ?? []))
    if (
      (result.output.changedFiles ?? []).length > 0 ||
      (result.output.mutated ?? !prepared.tool.isReadOnly(prepared.input))
    )
      run.mutated = true
  }
  const extra: string[] = []
  if (prepared.additionalContext) extra.push(prepared.additionalContext)
  const post = await deps.postToolUse(prepared.tool.name, prepared.input, result, toolUseId).catch(() => ({}))
  if ('additionalContext' in post && post.additionalContext) extra.push(post.additionalContext)
  if ('stop' in post && post.stop !== undefined) run.stop ??= post.stop
  // The after-call decision seam's notes go ahead of the result, as reminders.
  const notes = signal.aborted
    ? []
    : ((await deps
        .notesFor?.(
          {
            toolName: prepared.tool.name,
            input: prepared.input,
            resultText: outputText(content),
            isError,
          },
          signal,
        )
        .catch(() => [])) ?? [])
  const withExtra: ToolResultContent[] = [
    ...notes.map((text) => ({ type: 'text' as const, text })),
    ...content,
    ...extra.map((text) => ({ type: 'text' as const, text })),
  ]
  state.result = { type: 'tool_result', toolUseId, content: withExtra, isError }
}
