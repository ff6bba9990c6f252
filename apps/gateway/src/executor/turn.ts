/**
 * One public response: up to `maxRounds` upstream rounds (gateway tools make more than one), each
 * ingested through the round accumulator, relayed to a streaming client with the gateway's own ids,
 * output indexes and sequence numbers, and finalized as one response. Persistence is the caller's.
 */
import type { GatewayConfig } from '../config.js'
import { SseDecoder } from '../sse/parse-sse.js'
import { readUpstreamRound } from '../sse/read-upstream.js'
import {
  outcomeOfJson,
  type PushResult,
  RoundAccumulator,
  type RoundOutcome,
} from '../sse/round-accumulator.js'
import type { GatewayToolCall, GatewayToolset } from '../tools/gateway-tools.js'
import { gatewayRuns, isClientCall } from '../tools/ownership.js'
import { roundSignal } from '../upstream/round-signal.js'
import type { Upstream } from '../upstream/upstream.js'
import type { GatewayError } from '../wire/errors.js'
import { newId } from '../wire/ids.js'
import { isObject, type JsonObject } from '../wire/json.js'
import type { CreateResponseRequest } from '../wire/request.js'
import { RetainedBudget } from './budget.js'
import { modelInput, prefixFor, toInputItem } from './items.js'
import { addUsage } from './usage.js'

/** Where a streaming response's events go. `send` resolves once written; false when the client left. */
export interface TurnSink {
  /** `json` is `data` already serialized when the caller had to measure it (so it is encoded once). */
  send(type: string, data: JsonObject, json?: string): Promise<boolean>
}

/** Everything one turn needs. */
export interface TurnInput {
  request: CreateResponseRequest
  responseId: string
  createdAt: number
  /** Rehydrated canonical history (model-visible items). */
  history: JsonObject[]
  tools: GatewayToolset | undefined
  upstream: Upstream
  config: GatewayConfig
  sink: TurnSink | undefined
  signal: AbortSignal
}

/** An item of this turn with who it is for (public output, model history, or both). */
export interface TurnItem {
  item: JsonObject
  visibility: 'both' | 'public' | 'model'
}

/** How the turn ended. */
export type TurnResult =
  | { kind: 'finished'; response: JsonObject; items: TurnItem[]; terminal: string; sequence: number }
  /** Failed before anything reached the client: answer with this HTTP error. */
  | { kind: 'error'; error: GatewayError }
  | { kind: 'aborted' }

/** Request fields the gateway answers itself, never sent upstream. */
const GATEWAY_FIELDS = new Set([
  'store',
  'previous_response_id',
  'conversation',
  'stream',
  'input',
  'tools',
  'max_tool_calls',
  'metadata',
  'background',
])

/** Request fields echoed on the public response object, as OpenAI does. */
const ECHOED = [
  'instructions',
  'tool_choice',
  'parallel_tool_calls',
  'temperature',
  'top_p',
  'max_output_tokens',
  'max_tool_calls',
  'text',
  'reasoning',
  'truncation',
  'user',
] as const

/** The public response object before its output: what `response.created` carries (and a queued background response). */
export function responseSkeleton(
  request: CreateResponseRequest,
  responseId: string,
  createdAt: number,
): JsonObject {
  const echoed: JsonObject = {}
  for (const key of ECHOED) {
    const value = request.raw[key]
    if (value !== undefined) echoed[key] = value
  }
  return {
    id: responseId,
    object: 'response',
    created_at: createdAt,
    status: 'in_progress',
    model: request.model,
    output: [],
    usage: null,
    error: null,
    incomplete_details: null,
    instructions: null,
    tools: request.tools,
    tool_choice: 'auto',
    parallel_tool_calls: false,
    ...echoed,
    previous_response_id: request.previousResponseId,
    conversation: request.conversationId === null ? null : { id: request.conversationId },
    metadata: request.metadata,
    store: request.store,
    background: request.background,
  }
}

interface Mapped {
  publicIndex: number
  id: string
}

/** Runs the turn. Never throws for upstream or protocol trouble: those end the response. */
export async function runTurn(input: TurnInput): Promise<TurnResult> {
  const { config, request, sink, tools } = input
  const limits = config.limits
  const budget = new RetainedBudget(limits.maxRetainedBytes)
  const base = responseSkeleton(request, input.responseId, input.createdAt)
  let sequence = 0
  let started = false
  let clientGone = false
  let eventLimitHit = false
  const publicItems: Array<{ index: number; item: JsonObject }> = []
  const turnItems: TurnItem[] = request.input.map((item) => ({ item, visibility: 'both' }))
  let publicCount = 0
  let usage: JsonObject | null = null
  let gatewayCallsRun = 0
  let gatewayToolsWithheld = false

  const send = (type: string, data: JsonObject): Promise<boolean> =>
    sendEvent({ type, sequence_number: sequence, ...data })
  /** Sends an event built already (`type` set; its `sequence_number` is set here). */
  const sendEvent = async (event: JsonObject): Promise<boolean> => {
    if (!sink || clientGone || eventLimitHit) return !clientGone && !eventLimitHit
    const type = String(event.type)
    event.sequence_number = sequence
    const json = JSON.stringify(event)
    // A UTF-16 unit is at most 3 UTF-8 bytes: only an event near the limit needs the exact count.
    if (
      json.length * 3 > limits.maxStreamEventBytes &&
      Buffer.byteLength(json) > limits.maxStreamEventBytes
    ) {
      eventLimitHit = true
      return false
    }
    sequence += 1
    if (!(await sink.send(type, event, json))) clientGone = true
    return !clientGone
  }

  const start = async (): Promise<void> => {
    if (started) return
    started = true
    if (request.background) {
      // OpenAI's background sequence: created and queued, then in progress.
      const queued = { ...base, status: 'queued' }
      await send('response.created', { response: queued })
      await send('response.queued', { response: queued })
    } else await send('response.created', { response: base })
    await send('response.in_progress', { response: base })
    for (const { index, item } of listed) {
      await send('response.output_item.added', { output_index: index, item })
      await send('response.mcp_list_tools.in_progress', { output_index: index, item_id: item.id ?? null })
      await send('response.mcp_list_tools.completed', { output_index: index, item_id: item.id ?? null })
      await send('response.output_item.done', { output_index: index, item })
    }
  }

  // Discovery happened before the first round: its public items come first.
  const listed = (tools?.listItems ?? []).map((item) => ({ index: publicCount++, item }))
  for (const entry of listed) {
    publicItems.push(entry)
    turnItems.push({ item: entry.item, visibility: 'public' })
  }

  const finish = (status: 'completed' | 'incomplete' | 'failed', extra: JsonObject): TurnResult => {
    const output = publicItems.sort((a, b) => a.index - b.index).map((entry) => entry.item)
    const response: JsonObject = { ...base, ...extra, status, output, usage }
    const terminal =
      status === 'completed'
        ? 'response.completed'
        : status === 'failed'
          ? 'response.failed'
          : 'response.incomplete'
    return { kind: 'finished', response, items: turnItems, terminal, sequence }
  }
  const incomplete = (reason: string): TurnResult => finish('incomplete', { incomplete_details: { reason } })

  for (let round = 0; round < limits.maxRounds; round++) {
    const history = modelInput([
      ...input.history,
      ...turnItems.flatMap((entry) => {
        if (entry.visibility === 'public') return []
        const converted = toInputItem(entry.item)
        return converted ? [converted] : []
      }),
    ])
    if (!Array.isArray(history)) return { kind: 'error', error: history }
    const body: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(request.raw)) if (!GATEWAY_FIELDS.has(key)) body[key] = value
    body.input = history
    body.store = false
    body.stream = sink !== undefined
    // Every tool the gateway does not run is forwarded as the client declared it.
    const clientTools = request.tools.filter((tool) => !gatewayRuns(tool, config))
    const upstreamTools = [...clientTools, ...(gatewayToolsWithheld ? [] : (tools?.upstreamTools ?? []))]
    if (upstreamTools.length > 0) body.tools = upstreamTools
    if (round > 0) body.tool_choice = 'auto'

    const upstreamRound = roundSignal(input.signal)
    const reply = await input.upstream.createResponse(body, upstreamRound.signal)
    if (input.signal.aborted) return { kind: 'aborted' }
    if (reply.kind === 'error') {
      if (!started) return { kind: 'error', error: reply.error }
      return finish('failed', {
        error: { code: reply.error.code ?? 'upstream_error', message: reply.error.message },
      })
    }
    await start()

    const mapped = new Map<number, Mapped>()
    const suppressed = new Set<number>()
    /** The round's completed items by upstream output index. */
    const completed = new Map<number, JsonObject>()
    let outcome: RoundOutcome
    if (reply.kind === 'json') {
      outcome = outcomeOfJson(reply.body, budget)
      for (const [index, item] of outcome.output.entries()) {
        completed.set(index, item)
        if (item.type === 'function_call' && tools?.owns(String(item.name))) suppressed.add(index)
        else mapped.set(index, { publicIndex: publicCount++, id: newId(prefixFor(String(item.type))) })
      }
    } else {
      const accumulator = new RoundAccumulator(budget)
      const decoder = new SseDecoder(limits.maxSseLineBytes)
      const handle = async (result: PushResult): Promise<RoundOutcome | undefined> => {
        switch (result.kind) {
          case 'start':
          case 'terminal':
            return undefined
          case 'stop':
            return result.outcome
          case 'other': {
            const { type: _type, sequence_number: _sequence, ...rest } = result.event.payload
            await send(result.event.type, rest)
            return undefined
          }
          case 'item': {
            const { slot, event } = result
            if (event.type === 'response.output_item.added') {
              if (slot.type === 'function_call' && tools?.owns(String(slot.item.name)))
                suppressed.add(slot.index)
              else mapped.set(slot.index, { publicIndex: publicCount++, id: newId(prefixFor(slot.type)) })
            }
            const target = mapped.get(slot.index)
            if (!target) return undefined
            // Relayed in place: the payload was parsed for this event alone (the accumulator keeps
            // no reference to it, and the item it may keep is replaced here, not changed).
            const relayed = event.payload
            relayed.output_index = target.publicIndex
            if ('item_id' in relayed) relayed.item_id = target.id
            if (isObject(relayed.item)) relayed.item = { ...relayed.item, id: target.id }
            await sendEvent(relayed)
            return undefined
          }
          default: {
            const unreachable: never = result
            throw new Error(`unknown push result ${JSON.stringify(unreachable)}`)
          }
        }
      }
      const read = await readUpstreamRound(
        reply.body,
        decoder,
        (event) => handle(accumulator.push(event)),
        () => clientGone || eventLimitHit,
      )
      if (read.broken && input.signal.aborted) return { kind: 'aborted' }
      const ended = read.outcome
      upstreamRound.end()
      if (clientGone || input.signal.aborted) return { kind: 'aborted' }
      if (eventLimitHit) return incomplete('max_stream_event_bytes')
      outcome = ended ?? accumulator.end()
      for (const index of [...mapped.keys(), ...suppressed]) {
        const slot = accumulator.slot(index)
        if (slot?.done) completed.set(index, slot.item)
      }
    }
    usage = addUsage(usage, outcome.usage)

    // Completed items of the round, in upstream order: public ones with gateway ids, gateway calls apart.
    const gatewayCalls: Array<{ call: GatewayToolCall; item: JsonObject }> = []
    let clientCalls = 0
    for (const [index, item] of [...completed.entries()].sort((a, b) => a[0] - b[0])) {
      if (suppressed.has(index)) {
        const canonical = { ...item, id: newId('fc') }
        turnItems.push({ item: canonical, visibility: 'model' })
        gatewayCalls.push({
          call: {
            callId: String(item.call_id ?? canonical.id),
            name: String(item.name),
            arguments: String(item.arguments ?? ''),
          },
          item: canonical,
        })
        continue
      }
      const target = mapped.get(index)
      if (!target) continue
      const publicItem = { ...item, id: target.id }
      publicItems.push({ index: target.publicIndex, item: publicItem })
      turnItems.push({ item: publicItem, visibility: 'both' })
      if (isClientCall(item)) clientCalls += 1
    }

    if (outcome.status === 'failed')
      return finish('failed', {
        error: outcome.error ?? { code: 'upstream_failed', message: 'upstream failed' },
      })
    if (outcome.status === 'incomplete') return incomplete(outcome.incompleteReason ?? 'upstream_incomplete')
    if (gatewayCalls.length === 0 || !tools) return finish('completed', {})

    // Gateway calls: admit in order (max_tool_calls), announce, run concurrently, complete in order.
    const planned = gatewayCalls.map(({ call }) => {
      const admitted = request.maxToolCalls === null || gatewayCallsRun < request.maxToolCalls
      if (admitted) gatewayCallsRun += 1
      else gatewayToolsWithheld = true
      const id = newId(prefixFor(tools.itemType(call.name)))
      return { call, id, admitted, publicIndex: admitted ? publicCount++ : -1 }
    })
    for (const plan of planned) {
      if (!plan.admitted) continue
      const item = tools.startItem(plan.call, plan.id)
      await send('response.output_item.added', { output_index: plan.publicIndex, item })
      await send(`${tools.eventPrefix(plan.call.name)}.in_progress`, {
        output_index: plan.publicIndex,
        item_id: plan.id,
      })
      for (const event of tools.runningEvents(plan.call.name))
        await send(`${tools.eventPrefix(plan.call.name)}.${event}`, {
          output_index: plan.publicIndex,
          item_id: plan.id,
        })
    }
    if (clientGone) return { kind: 'aborted' }
    const results = await runLimited(planned, 5, async (plan) => {
      if (!plan.admitted)
        return {
          output: `Not run: this response reached max_tool_calls (${request.maxToolCalls}).`,
          publicItem: undefined,
          failed: true,
        }
      const timeout = AbortSignal.timeout(config.toolTimeoutMs)
      const result = await tools.execute(plan.call, plan.id, AbortSignal.any([input.signal, timeout]))
      return { ...result, publicItem: result.publicItem as JsonObject | undefined }
    })
    if (input.signal.aborted) return { kind: 'aborted' }
    for (const [index, plan] of planned.entries()) {
      const result = results[index]
      if (!result) continue
      if (!budget.charge(Buffer.byteLength(result.output))) return incomplete('max_retained_bytes')
      turnItems.push({
        item: { type: 'function_call_output', call_id: plan.call.callId, output: result.output },
        visibility: 'model',
      })
      if (!plan.admitted || !result.publicItem) continue
      publicItems.push({ index: plan.publicIndex, item: result.publicItem })
      turnItems.push({ item: result.publicItem, visibility: 'public' })
      const prefix = tools.eventPrefix(plan.call.name)
      await send(`${prefix}.${result.failed ? 'failed' : 'completed'}`, {
        output_index: plan.publicIndex,
        item_id: plan.id,
      })
      await send('response.output_item.done', { output_index: plan.publicIndex, item: result.publicItem })
    }
    if (clientGone) return { kind: 'aborted' }
    if (clientCalls > 0) return finish('completed', {})
  }
  return incomplete('max_tool_rounds')
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
