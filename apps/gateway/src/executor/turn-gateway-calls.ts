/**
 * The gateway-run tool calls of one round: admitted in order (`max_tool_calls`), announced to the
 * client, run concurrently (at most five at a time, each under the tool timeout), then completed in
 * order — their outputs go to the model's history, their public items to the client.
 */
import type { GatewayConfig } from '../config.js'
import type { GatewayToolCall, GatewayToolset } from '../tools/gateway-tools.js'
import { newId } from '../wire/ids.js'
import type { JsonObject } from '../wire/json.js'
import type { RetainedBudget } from './budget.js'
import { prefixFor } from './items.js'
import type { TurnEvents } from './turn-events.js'
import type { TurnOutput } from './turn-output.js'

/** A call the model made of a gateway tool, with its canonical (model-visible) item. */
export interface GatewayCall {
  call: GatewayToolCall
  item: JsonObject
}

/** What the calls' turn shares with them. */
export interface GatewayCallContext {
  tools: GatewayToolset
  events: TurnEvents
  output: TurnOutput
  budget: RetainedBudget
  config: GatewayConfig
  signal: AbortSignal
  maxToolCalls: number | null
  /** Gateway calls run so far in this turn (the `max_tool_calls` count). */
  run: number
}

/** How the round's calls ended: all done (`withheld` once the limit refused one), or the turn stops. */
export type GatewayCallsResult =
  | { kind: 'done'; withheld: boolean }
  | { kind: 'aborted' }
  | { kind: 'incomplete'; reason: string }

interface Planned {
  call: GatewayToolCall
  id: string
  admitted: boolean
  index: number
}

interface CallResult {
  output: string
  publicItem: JsonObject | undefined
  failed: boolean
}

/** Runs one round's gateway calls (see the file's comment). */
export async function runGatewayCalls(
  calls: GatewayCall[],
  context: GatewayCallContext,
): Promise<GatewayCallsResult> {
  const { tools, events, output } = context
  let withheld = false
  const planned = calls.map(({ call }): Planned => {
    const admitted = context.maxToolCalls === null || context.run < context.maxToolCalls
    if (admitted) context.run += 1
    else withheld = true
    const id = newId(prefixFor(tools.itemType(call.name)))
    return { call, id, admitted, index: admitted ? output.nextIndex() : -1 }
  })
  for (const plan of planned) if (plan.admitted) await announce(plan, context)
  if (events.clientGone) return { kind: 'aborted' }
  const results = await runLimited(planned, 5, (plan) => execute(plan, context))
  if (context.signal.aborted) return { kind: 'aborted' }
  for (const [index, plan] of planned.entries()) {
    const result = results[index]
    if (!result) continue
    if (!context.budget.charge(Buffer.byteLength(result.output)))
      return { kind: 'incomplete', reason: 'max_retained_bytes' }
    output.addModel({ type: 'function_call_output', call_id: plan.call.callId, output: result.output })
    if (!plan.admitted || !result.publicItem) continue
    output.addPublic(plan.index, result.publicItem, 'public')
    const prefix = tools.eventPrefix(plan.call.name)
    const at = { output_index: plan.index, item_id: plan.id }
    await events.send(`${prefix}.${result.failed ? 'failed' : 'completed'}`, at)
    await events.send('response.output_item.done', { output_index: plan.index, item: result.publicItem })
  }
  if (events.clientGone) return { kind: 'aborted' }
  return { kind: 'done', withheld }
}

/** The call's public item appears, in progress (and its running events, e.g. `searching`). */
async function announce(plan: Planned, { tools, events }: GatewayCallContext): Promise<void> {
  const item = tools.startItem(plan.call, plan.id)
  const prefix = tools.eventPrefix(plan.call.name)
  const at = { output_index: plan.index, item_id: plan.id }
  await events.send('response.output_item.added', { output_index: plan.index, item })
  await events.send(`${prefix}.in_progress`, at)
  for (const event of tools.runningEvents(plan.call.name)) await events.send(`${prefix}.${event}`, at)
}

async function execute(plan: Planned, context: GatewayCallContext): Promise<CallResult> {
  if (!plan.admitted)
    return {
      output: `Not run: this response reached max_tool_calls (${context.maxToolCalls}).`,
      publicItem: undefined,
      failed: true,
    }
  const timeout = AbortSignal.timeout(context.config.toolTimeoutMs)
  const result = await context.tools.execute(plan.call, plan.id, AbortSignal.any([context.signal, timeout]))
  return { ...result, publicItem: result.publicItem as JsonObject | undefined }
}

async function runLimited<T, R>(items: T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++
      results[index] = await run(items[index] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}
