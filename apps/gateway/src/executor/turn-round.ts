/**
 * One upstream round of a turn: its reply read through the round accumulator, each output item either
 * relayed to the client under a gateway id and public output index, or (a call of a gateway-run tool)
 * kept from the client; what comes back is the round's outcome and its completed items in upstream order.
 */
import { SseDecoder } from '../sse/parse-sse.js'
import { type EventVerdict, readUpstreamRound } from '../sse/read-upstream.js'
import {
  outcomeOfJson,
  type PushResult,
  RoundAccumulator,
  type RoundOutcome,
} from '../sse/round-accumulator.js'
import type { UpstreamEvent } from '../sse/upstream-event.js'
import type { GatewayToolset } from '../tools/gateway-tools.js'
import type { UpstreamReply } from '../upstream/upstream.js'
import { newId } from '../wire/ids.js'
import { isObject, type JsonObject } from '../wire/json.js'
import type { RetainedBudget } from './budget.js'
import { prefixFor } from './items.js'
import type { TurnEvents } from './turn-events.js'
import type { TurnOutput } from './turn-output.js'

/** A completed item of the round: relayed under a public index and gateway id, or a gateway call. */
export type RoundItem =
  | { kind: 'public'; item: JsonObject; index: number; id: string }
  | { kind: 'gateway'; item: JsonObject }

/** How reading the round went. */
export type RoundRead =
  | { kind: 'read'; outcome: RoundOutcome; items: RoundItem[] }
  | { kind: 'aborted' }
  /** An event for the client would have exceeded the ceiling. */
  | { kind: 'event_limit' }

/** What a round needs from its turn. */
export interface RoundContext {
  events: TurnEvents
  output: TurnOutput
  budget: RetainedBudget
  tools: GatewayToolset | undefined
  maxSseLineBytes: number
  signal: AbortSignal
}

interface Mapped {
  index: number
  id: string
}

const NOTHING = (): undefined => undefined

/** Relays one streamed round's events: classifies items as they open, rewrites ids and indexes in place. */
class RoundRelay {
  readonly accumulator: RoundAccumulator
  readonly mapped = new Map<number, Mapped>()
  /** Upstream indexes of gateway calls (never shown to the client). */
  readonly suppressed = new Set<number>()
  readonly #context: RoundContext

  constructor(context: RoundContext) {
    this.#context = context
    this.accumulator = new RoundAccumulator(context.budget)
  }

  /** Classifies an item the upstream added at `index`. */
  open(index: number, item: JsonObject): void {
    if (item.type === 'function_call' && this.#context.tools?.owns(String(item.name)))
      this.suppressed.add(index)
    else
      this.mapped.set(index, {
        index: this.#context.output.nextIndex(),
        id: newId(prefixFor(String(item.type))),
      })
  }

  onEvent(event: UpstreamEvent): EventVerdict {
    const result: PushResult = this.accumulator.push(event)
    switch (result.kind) {
      case 'start':
      case 'terminal':
        return undefined
      case 'stop':
        return result.outcome
      case 'other': {
        const { type: _type, sequence_number: _sequence, ...rest } = result.event.payload
        return settled(this.#context.events.send(result.event.type, rest))
      }
      case 'item': {
        const { slot } = result
        if (event.type === 'response.output_item.added') this.open(slot.index, slot.item)
        const target = this.mapped.get(slot.index)
        if (!target) return undefined
        // Relayed in place: the payload was parsed for this event alone (the accumulator keeps no
        // reference to it, and the item it may keep is replaced here, not changed).
        const relayed = event.payload
        relayed.output_index = target.index
        if ('item_id' in relayed) relayed.item_id = target.id
        if (isObject(relayed.item)) relayed.item = { ...relayed.item, id: target.id }
        return settled(this.#context.events.sendEvent(relayed))
      }
      default: {
        const unreachable: never = result
        throw new Error(`unknown push result ${JSON.stringify(unreachable)}`)
      }
    }
  }

  /** The completed items of the round in upstream order. */
  items(outcome: RoundOutcome, json: boolean): RoundItem[] {
    const completed: Array<[number, JsonObject]> = json
      ? outcome.output.map((item, index) => [index, item])
      : []
    if (!json)
      for (const index of [...this.mapped.keys(), ...this.suppressed]) {
        const slot = this.accumulator.slot(index)
        if (slot?.done) completed.push([index, slot.item])
      }
    completed.sort((a, b) => a[0] - b[0])
    const items: RoundItem[] = []
    for (const [index, item] of completed) {
      if (this.suppressed.has(index)) items.push({ kind: 'gateway', item })
      const target = this.mapped.get(index)
      if (target) items.push({ kind: 'public', item, index: target.index, id: target.id })
    }
    return items
  }
}

/** A send's verdict as the reader's: nothing to decide, now or once the sink has room. */
function settled(sent: boolean | Promise<boolean>): EventVerdict {
  return typeof sent === 'boolean' ? undefined : sent.then(NOTHING)
}

/** Reads one round's reply (a JSON body or a stream) and relays it. */
export async function readRound(
  reply: Exclude<UpstreamReply, { kind: 'error' }>,
  context: RoundContext,
): Promise<RoundRead> {
  const relay = new RoundRelay(context)
  if (reply.kind === 'json') {
    const outcome = outcomeOfJson(reply.body, context.budget)
    for (const [index, item] of outcome.output.entries()) relay.open(index, item)
    return { kind: 'read', outcome, items: relay.items(outcome, true) }
  }
  const { events } = context
  const read = await readUpstreamRound(
    reply.body,
    new SseDecoder(context.maxSseLineBytes),
    (event) => relay.onEvent(event),
    () => events.halted,
  )
  if (events.clientGone || context.signal.aborted) return { kind: 'aborted' }
  if (events.eventLimitHit) return { kind: 'event_limit' }
  const outcome = read.outcome ?? relay.accumulator.end()
  return { kind: 'read', outcome, items: relay.items(outcome, false) }
}
