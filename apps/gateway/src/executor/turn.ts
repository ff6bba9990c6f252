/**
 * One public response: up to `maxRounds` upstream rounds (gateway tools make more than one), each
 * read through the round accumulator (turn-round.ts), relayed to a streaming client with the gateway's
 * own ids, output indexes and sequence numbers (turn-events.ts), and finalized as one response.
 * Persistence is the caller's.
 */
import type { GatewayConfig } from '../config.js'
import type { GatewayToolset } from '../tools/gateway-tools.js'
import { gatewayRuns, isClientCall } from '../tools/ownership.js'
import { roundSignal } from '../upstream/round-signal.js'
import type { Upstream } from '../upstream/upstream.js'
import type { GatewayError } from '../wire/errors.js'
import { newId } from '../wire/ids.js'
import type { JsonObject } from '../wire/json.js'
import type { CreateResponseRequest } from '../wire/request.js'
import { RetainedBudget } from './budget.js'
import { modelInput } from './items.js'
import { TurnEvents, type TurnSink } from './turn-events.js'
import { type GatewayCall, type GatewayCallContext, runGatewayCalls } from './turn-gateway-calls.js'
import { type TurnItem, TurnOutput } from './turn-output.js'
import { responseSkeleton, upstreamBody } from './turn-request.js'
import { type RoundItem, readRound } from './turn-round.js'
import { addUsage } from './usage.js'

export type { TurnSink } from './turn-events.js'

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

/** How the turn ended. */
export type TurnResult =
  | { kind: 'finished'; response: JsonObject; items: TurnItem[]; terminal: string; sequence: number }
  /** Failed before anything reached the client: answer with this HTTP error. */
  | { kind: 'error'; error: GatewayError }
  | { kind: 'aborted' }

const TERMINAL = {
  completed: 'response.completed',
  incomplete: 'response.incomplete',
  failed: 'response.failed',
} as const

/** One turn's state between its rounds. */
class Turn {
  readonly input: TurnInput
  readonly events: TurnEvents
  readonly output: TurnOutput
  readonly budget: RetainedBudget
  readonly base: JsonObject
  /** The gateway's discovery items (`mcp_list_tools`), first in the output. */
  readonly listed: Array<{ index: number; item: JsonObject }>
  usage: JsonObject | null = null
  started = false

  constructor(input: TurnInput) {
    this.input = input
    const { request, config } = input
    this.events = new TurnEvents(input.sink, config.limits.maxStreamEventBytes)
    this.output = new TurnOutput(request.input)
    this.budget = new RetainedBudget(config.limits.maxRetainedBytes)
    this.base = responseSkeleton(request, input.responseId, input.createdAt)
    // Discovery happened before the first round: its public items come first.
    this.listed = (input.tools?.listItems ?? []).map((item) => ({ index: this.output.nextIndex(), item }))
    for (const { index, item } of this.listed) this.output.addPublic(index, item, 'public')
  }

  /** The opening events, once: created (and queued, for a background response), in progress, discovery. */
  async start(): Promise<void> {
    if (this.started) return
    this.started = true
    const { events, base } = this
    if (this.input.request.background) {
      // OpenAI's background sequence: created and queued, then in progress.
      const queued = { ...base, status: 'queued' }
      await events.send('response.created', { response: queued })
      await events.send('response.queued', { response: queued })
    } else await events.send('response.created', { response: base })
    await events.send('response.in_progress', { response: base })
    for (const { index, item } of this.listed) {
      const at = { output_index: index, item_id: item.id ?? null }
      await events.send('response.output_item.added', { output_index: index, item })
      await events.send('response.mcp_list_tools.in_progress', at)
      await events.send('response.mcp_list_tools.completed', at)
      await events.send('response.output_item.done', { output_index: index, item })
    }
  }

  finish(status: keyof typeof TERMINAL, extra: JsonObject = {}): TurnResult {
    const response: JsonObject = {
      ...this.base,
      ...extra,
      status,
      output: this.output.output(),
      usage: this.usage,
    }
    return {
      kind: 'finished',
      response,
      items: this.output.items,
      terminal: TERMINAL[status],
      sequence: this.events.sequence,
    }
  }

  incomplete(reason: string): TurnResult {
    return this.finish('incomplete', { incomplete_details: { reason } })
  }

  /** Records the round's completed items; returns its gateway calls and how many client calls it made. */
  collect(items: RoundItem[]): { gatewayCalls: GatewayCall[]; clientCalls: number } {
    const gatewayCalls: GatewayCall[] = []
    let clientCalls = 0
    for (const entry of items) {
      if (entry.kind === 'gateway') {
        const { item } = entry
        const canonical = { ...item, id: newId('fc') }
        this.output.addModel(canonical)
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
      this.output.addPublic(entry.index, { ...entry.item, id: entry.id }, 'both')
      if (isClientCall(entry.item)) clientCalls += 1
    }
    return { gatewayCalls, clientCalls }
  }
}

/** Runs the turn. Never throws for upstream or protocol trouble: those end the response. */
export async function runTurn(input: TurnInput): Promise<TurnResult> {
  const { config, request, tools, signal } = input
  const turn = new Turn(input)
  // Every tool the gateway does not run is forwarded as the client declared it.
  const clientTools = request.tools.filter((tool) => !gatewayRuns(tool, config))
  const calls: GatewayCallContext | undefined = tools && {
    tools,
    events: turn.events,
    output: turn.output,
    budget: turn.budget,
    config,
    signal,
    maxToolCalls: request.maxToolCalls,
    run: 0,
  }
  let withheld = false
  for (let round = 0; round < config.limits.maxRounds; round++) {
    const history = modelInput([...input.history, ...turn.output.modelInput()])
    if (!Array.isArray(history)) return { kind: 'error', error: history }
    const upstreamTools = withheld ? clientTools : [...clientTools, ...(tools?.upstreamTools ?? [])]
    const body = upstreamBody(request, history, upstreamTools, {
      index: round,
      stream: input.sink !== undefined,
    })
    const upstreamRound = roundSignal(signal)
    const reply = await input.upstream.createResponse(body, upstreamRound.signal)
    if (signal.aborted) return { kind: 'aborted' }
    if (reply.kind === 'error') {
      upstreamRound.end()
      if (!turn.started) return { kind: 'error', error: reply.error }
      return turn.finish('failed', {
        error: { code: reply.error.code ?? 'upstream_error', message: reply.error.message },
      })
    }
    await turn.start()
    const read = await readRound(reply, {
      events: turn.events,
      output: turn.output,
      budget: turn.budget,
      tools,
      maxSseLineBytes: config.limits.maxSseLineBytes,
      signal,
    })
    upstreamRound.end()
    if (read.kind === 'aborted') return { kind: 'aborted' }
    if (read.kind === 'event_limit') return turn.incomplete('max_stream_event_bytes')
    const { outcome } = read
    turn.usage = addUsage(turn.usage, outcome.usage)
    const { gatewayCalls, clientCalls } = turn.collect(read.items)
    if (outcome.status === 'failed')
      return turn.finish('failed', {
        error: outcome.error ?? { code: 'upstream_failed', message: 'upstream failed' },
      })
    if (outcome.status === 'incomplete')
      return turn.incomplete(outcome.incompleteReason ?? 'upstream_incomplete')
    if (gatewayCalls.length === 0 || !calls) return turn.finish('completed')
    const ran = await runGatewayCalls(gatewayCalls, calls)
    if (ran.kind === 'aborted') return { kind: 'aborted' }
    if (ran.kind === 'incomplete') return turn.incomplete(ran.reason)
    withheld ||= ran.withheld
    if (clientCalls > 0) return turn.finish('completed')
  }
  return turn.incomplete('max_tool_rounds')
}
