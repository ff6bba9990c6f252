import type { ApprovalDecision } from '@z-engine/protocol'
import pLimit from 'p-limit'
import { applyAnswers } from './apply-answers.js'
import type { BatchCall, BatchDeps, BatchOutcome } from './batch-types.js'
import {
  CANCELLED_TEXT,
  type CallState,
  mayWrite,
  outputText,
  type Prepared,
  textResult,
} from './call-state.js'
import { type BatchRun, executeCall } from './execute-call.js'
import { planExecutionOrder } from './plan-order.js'
import { prepareCall } from './prepare-call.js'

/**
 * Runs one batch (spec 000 "Tool batch"): check, gate, approvals (all asks together, any order),
 * then execution in call order with neighbouring concurrency-safe calls together. Every call gets
 * exactly one result, in order, on every path (cancellation included). Never throws.
 */
export async function runBatch(
  calls: BatchCall[],
  deps: BatchDeps,
  signal: AbortSignal,
): Promise<BatchOutcome> {
  const batchId = deps.newId('b')
  const run: BatchRun = { deps, signal, stop: undefined, changedFiles: [], mutated: false }
  const states: CallState[] = []
  for (const call of calls) {
    // Hooks run in call order so their side effects are predictable.
    const prepared: Prepared = signal.aborted
      ? { kind: 'settled', status: 'cancelled', text: CANCELLED_TEXT }
      : run.stop !== undefined
        ? { kind: 'settled', status: 'cancelled', text: `Not run: a hook stopped the turn (${run.stop})` }
        : await prepareCall(call, deps, batchId, signal, states.some(mayWrite)).catch(
            (error: unknown): Prepared => ({
              kind: 'settled',
              status: 'error',
              text: `Error: ${error instanceof Error ? error.message : String(error)}`,
            }),
          )
    if (prepared.kind === 'settled' && prepared.stop !== undefined) run.stop = prepared.stop
    states.push({ call, prepared })
  }

  const asks = states.flatMap((state) =>
    state.prepared.kind === 'ready' && state.prepared.approval ? [state.prepared.approval] : [],
  )
  const answers: Map<string, ApprovalDecision> =
    asks.length > 0 && !signal.aborted ? await deps.requestApprovals(asks, signal) : new Map()
  await applyAnswers(states, answers, deps, signal)

  const safe = states.map((state) => {
    // Calls that already have a result cost nothing; they never split a concurrent run.
    if (state.result !== undefined || state.prepared.kind !== 'ready') return true
    try {
      return state.prepared.tool.isConcurrencySafe(state.prepared.input)
    } catch {
      return false
    }
  })
  const limit = pLimit(Math.max(1, deps.maxConcurrency))
  for (const group of planExecutionOrder(safe)) {
    if (group.type === 'alone') await executeCall(states[group.index]!, run)
    else await Promise.all(group.indices.map((index) => limit(() => executeCall(states[index]!, run))))
  }

  // Claude Code fires PostToolBatch once per batch, after every call resolved (not on a cancel).
  if (!signal.aborted && deps.postToolBatch !== undefined)
    await deps.postToolBatch(
      states.map((state) => ({
        tool_name: state.prepared.kind === 'ready' ? state.prepared.tool.name : state.call.block.name,
        tool_input: state.prepared.kind === 'ready' ? state.prepared.input : state.call.block.input,
        tool_use_id: state.call.block.id,
        ...(state.result !== undefined ? { tool_response: outputText(state.result.content) } : {}),
      })),
    )

  return {
    results: states.map((state) => state.result ?? textResult(state.call.block.id, CANCELLED_TEXT, true)),
    statuses: states.map((state) => state.status ?? 'cancelled'),
    changedFiles: run.changedFiles,
    mutated: run.mutated,
    ...(run.stop !== undefined ? { stop: run.stop } : {}),
  }
}
