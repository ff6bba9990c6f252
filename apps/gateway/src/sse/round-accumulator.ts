/**
 * One upstream inference round, assembled and checked: the lifecycle must run `response.created`
 * → `output_item.added` → deltas → `output_item.done` → `response.completed|failed|incomplete`, every
 * delta must name an open item at its `output_index` (with the same `item_id`), and nothing may follow
 * the terminal event. The JSON path (`stream: false` upstream) ends in the same outcome type.
 */
import type { RetainedBudget } from '../executor/budget.js'
import { isObject, type JsonObject, jsonBytes } from '../wire/json.js'
import type { UpstreamEvent } from './upstream-event.js'

/** How one round ended. */
export type RoundStatus = 'completed' | 'incomplete' | 'failed'

/** One finished round: its items in output order, usage, and why it ended. */
export interface RoundOutcome {
  status: RoundStatus
  output: JsonObject[]
  usage: JsonObject | null
  /** For `incomplete`: OpenAI's reason (`max_output_tokens`, …) or a gateway budget's name. */
  incompleteReason: string | null
  /** For `failed`: what went wrong, in words a client can act on. */
  error: { code: string; message: string } | null
}

/** An output item being assembled, keyed by its upstream `output_index`. */
export interface Slot {
  index: number
  upstreamId: string | null
  type: string
  item: JsonObject
  done: boolean
  /** Bytes already charged for this item's deltas. */
  charged: number
}

/** What one event did. */
export type PushResult =
  | { kind: 'start'; event: UpstreamEvent }
  | { kind: 'item'; event: UpstreamEvent; slot: Slot }
  | { kind: 'other'; event: UpstreamEvent }
  | { kind: 'terminal' }
  | { kind: 'stop'; outcome: RoundOutcome }

const TERMINAL = new Set(['response.completed', 'response.failed', 'response.incomplete'])

function failed(code: string, message: string): RoundOutcome {
  return { status: 'failed', output: [], usage: null, incompleteReason: null, error: { code, message } }
}

function asIndex(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/** Assembles one round from its stream events. */
export class RoundAccumulator {
  readonly #budget: RetainedBudget
  readonly #slots = new Map<number, Slot>()
  #started = false
  #terminal: RoundOutcome | undefined
  #stopped = false

  constructor(budget: RetainedBudget) {
    this.#budget = budget
  }

  /** The slot at an upstream output index (for classification by the executor). */
  slot(index: number): Slot | undefined {
    return this.#slots.get(index)
  }

  /** Applies one event. A `stop` result ends the round: the stream is abandoned. */
  push(event: UpstreamEvent): PushResult {
    if (this.#stopped)
      return { kind: 'stop', outcome: failed('upstream_protocol', 'The round already ended.') }
    const violation = (message: string): PushResult => {
      this.#stopped = true
      return {
        kind: 'stop',
        outcome: failed('upstream_protocol', `Upstream stream out of order: ${message}`),
      }
    }
    if (this.#terminal) return violation(`'${event.type}' arrived after the terminal event.`)
    const { type, payload } = event
    if (type === 'error') {
      this.#stopped = true
      const message = textOf(payload.message) || 'the upstream server reported an error mid-stream'
      return { kind: 'stop', outcome: failed(textOf(payload.code) || 'upstream_error', message) }
    }
    if (type === 'response.created' || type === 'response.in_progress' || type === 'response.queued') {
      if (type === 'response.created' && this.#started) return violation("a second 'response.created'.")
      if (type !== 'response.created' && !this.#started)
        return violation(`'${type}' before 'response.created'.`)
      this.#started = true
      return { kind: 'start', event }
    }
    if (!this.#started) return violation(`'${type}' before 'response.created'.`)
    if (TERMINAL.has(type)) return this.#finish(type, payload, violation)
    const index = asIndex(payload.output_index)
    if (type === 'response.output_item.added') {
      if (index === undefined)
        return violation("'response.output_item.added' without a valid 'output_index'.")
      if (this.#slots.has(index)) return violation(`output_index ${index} was added twice.`)
      const item = payload.item
      if (!isObject(item) || typeof item.type !== 'string')
        return violation(`'response.output_item.added' at ${index} carries no typed item.`)
      const slot: Slot = {
        index,
        upstreamId: typeof item.id === 'string' ? item.id : null,
        type: item.type,
        item: { ...item },
        done: false,
        charged: 0,
      }
      const size = jsonBytes(item)
      if (!this.#budget.charge(size)) return this.#overBudget()
      slot.charged = size
      this.#slots.set(index, slot)
      return { kind: 'item', event, slot }
    }
    if (index === undefined) return { kind: 'other', event }
    const slot = this.#slots.get(index)
    if (!slot) return violation(`'${type}' names output_index ${index}, which was never added.`)
    if (slot.done) return violation(`'${type}' names output_index ${index}, which is already done.`)
    if (
      typeof payload.item_id === 'string' &&
      slot.upstreamId !== null &&
      payload.item_id !== slot.upstreamId
    )
      return violation(
        `'${type}' at output_index ${index} names item '${payload.item_id}', not '${slot.upstreamId}'.`,
      )
    if (type === 'response.output_item.done') {
      const item = payload.item
      if (!isObject(item) || item.type !== slot.type)
        return violation(
          `'response.output_item.done' at ${index} does not carry the ${slot.type} item that was added.`,
        )
      if (typeof item.id === 'string' && slot.upstreamId !== null && item.id !== slot.upstreamId)
        return violation(`'response.output_item.done' at ${index} changed the item id.`)
      const merged = mergeDone(slot.item, item)
      const size = jsonBytes(merged)
      if (!this.#budget.charge(size - slot.charged)) return this.#overBudget()
      slot.charged = Math.max(slot.charged, size)
      slot.item = merged
      slot.done = true
      return { kind: 'item', event, slot }
    }
    const grew = fold(slot.item, type, payload)
    if (grew > 0) {
      slot.charged += grew
      if (!this.#budget.charge(grew)) return this.#overBudget()
    }
    return { kind: 'item', event, slot }
  }

  /** The stream ended (EOF or `[DONE]`): the outcome, or a failure when no terminal event came. */
  end(): RoundOutcome {
    if (this.#terminal) return this.#terminal
    return failed(
      'upstream_stream_truncated',
      'The upstream stream ended before its terminal event (response.completed, failed or incomplete).',
    )
  }

  #overBudget(): PushResult {
    this.#stopped = true
    return {
      kind: 'stop',
      outcome: {
        status: 'incomplete',
        output: this.#completedItems(),
        usage: null,
        incompleteReason: 'max_retained_bytes',
        error: null,
      },
    }
  }

  #completedItems(): JsonObject[] {
    return [...this.#slots.values()]
      .filter((slot) => slot.done)
      .sort((a, b) => a.index - b.index)
      .map((slot) => slot.item)
  }

  #finish(type: string, payload: JsonObject, violation: (message: string) => PushResult): PushResult {
    const open = [...this.#slots.values()].find((slot) => !slot.done)
    if (open && type === 'response.completed')
      return violation(`'response.completed' while output_index ${open.index} is still open.`)
    const response = isObject(payload.response) ? payload.response : {}
    const usage = isObject(response.usage) ? response.usage : null
    const details = isObject(response.incomplete_details) ? response.incomplete_details : null
    const error = isObject(response.error) ? response.error : null
    const status =
      type === 'response.completed' ? 'completed' : type === 'response.failed' ? 'failed' : 'incomplete'
    this.#terminal = {
      status,
      output: this.#completedItems(),
      usage,
      incompleteReason: status === 'incomplete' ? textOf(details?.reason) || 'upstream_incomplete' : null,
      error:
        status === 'failed'
          ? {
              code: textOf(error?.code) || 'upstream_failed',
              message: textOf(error?.message) || 'The upstream model failed this response.',
            }
          : null,
    }
    return { kind: 'terminal' }
  }
}

/** The integer at `payload[key]`, 0 when absent. */
function at(payload: JsonObject, key: string): number {
  return asIndex(payload[key]) ?? 0
}

/** The item's list of parts under `key`, created when missing. */
function parts(item: JsonObject, key: string): JsonObject[] {
  const existing = item[key]
  if (Array.isArray(existing)) return existing as JsonObject[]
  const fresh: JsonObject[] = []
  item[key] = fresh
  return fresh
}

/** Appends a delta to one part's text field (the part created when missing); returns its bytes. */
function appendText(
  list: JsonObject[],
  index: number,
  field: string,
  partType: string,
  delta: string,
): number {
  const part = list[index] ?? { type: partType, [field]: '' }
  part[field] = textOf(part[field]) + delta
  list[index] = part
  return Buffer.byteLength(delta)
}

// Module-level helpers, not closures: fold runs for every delta of every stream (issue 37's load profile).
/** Folds one delta/part event into the item; returns the bytes it grew by. */
function fold(item: JsonObject, type: string, payload: JsonObject): number {
  switch (type) {
    case 'response.content_part.added':
    case 'response.content_part.done':
      if (isObject(payload.part)) parts(item, 'content')[at(payload, 'content_index')] = { ...payload.part }
      return type === 'response.content_part.added' ? jsonBytes(payload.part) : 0
    case 'response.output_text.delta':
      return appendText(
        parts(item, 'content'),
        at(payload, 'content_index'),
        'text',
        'output_text',
        textOf(payload.delta),
      )
    case 'response.output_text.done': {
      const list = parts(item, 'content')
      list[at(payload, 'content_index')] = {
        ...(list[at(payload, 'content_index')] ?? { type: 'output_text' }),
        text: textOf(payload.text),
      }
      return 0
    }
    case 'response.refusal.delta':
      return appendText(
        parts(item, 'content'),
        at(payload, 'content_index'),
        'refusal',
        'refusal',
        textOf(payload.delta),
      )
    case 'response.function_call_arguments.delta':
      item.arguments = textOf(item.arguments) + textOf(payload.delta)
      return Buffer.byteLength(textOf(payload.delta))
    case 'response.function_call_arguments.done':
      item.arguments = textOf(payload.arguments)
      return 0
    case 'response.custom_tool_call_input.delta':
      item.input = textOf(item.input) + textOf(payload.delta)
      return Buffer.byteLength(textOf(payload.delta))
    case 'response.custom_tool_call_input.done':
      item.input = textOf(payload.input)
      return 0
    case 'response.reasoning_summary_part.added':
      if (isObject(payload.part)) parts(item, 'summary')[at(payload, 'summary_index')] = { ...payload.part }
      return jsonBytes(payload.part)
    case 'response.reasoning_summary_text.delta':
      return appendText(
        parts(item, 'summary'),
        at(payload, 'summary_index'),
        'text',
        'summary_text',
        textOf(payload.delta),
      )
    case 'response.reasoning_text.delta':
      return appendText(
        parts(item, 'content'),
        at(payload, 'content_index'),
        'text',
        'reasoning_text',
        textOf(payload.delta),
      )
    default:
      // Other item events (done markers, annotations, provider extensions) are relayed, not folded.
      return 0
  }
}

/** The completed item is authoritative; folded fields fill what it leaves out (or leaves empty). */
function mergeDone(folded: JsonObject, done: JsonObject): JsonObject {
  const merged: JsonObject = { ...folded, ...done }
  for (const key of ['content', 'summary'] as const) {
    const given = done[key]
    const kept = folded[key]
    if ((!Array.isArray(given) || given.length === 0) && Array.isArray(kept) && kept.length > 0)
      merged[key] = kept
  }
  for (const key of ['arguments', 'input'] as const)
    if (typeof done[key] !== 'string' && typeof folded[key] === 'string') merged[key] = folded[key]
  return merged
}

/** A non-streamed upstream body as a round outcome (same checks on the items). */
export function outcomeOfJson(body: unknown, budget: RetainedBudget): RoundOutcome {
  if (!isObject(body) || !Array.isArray(body.output))
    return failed('upstream_protocol', "The upstream response body has no 'output' array.")
  const output: JsonObject[] = []
  for (const [index, item] of body.output.entries()) {
    if (!isObject(item) || typeof item.type !== 'string')
      return failed('upstream_protocol', `The upstream response's output[${index}] is not a typed item.`)
    if (!budget.charge(jsonBytes(item)))
      return {
        status: 'incomplete',
        output,
        usage: null,
        incompleteReason: 'max_retained_bytes',
        error: null,
      }
    output.push(item)
  }
  const status =
    body.status === 'incomplete' ? 'incomplete' : body.status === 'failed' ? 'failed' : 'completed'
  const details = isObject(body.incomplete_details) ? body.incomplete_details : null
  const error = isObject(body.error) ? body.error : null
  return {
    status,
    output,
    usage: isObject(body.usage) ? body.usage : null,
    incompleteReason: status === 'incomplete' ? textOf(details?.reason) || 'upstream_incomplete' : null,
    error:
      status === 'failed'
        ? {
            code: textOf(error?.code) || 'upstream_failed',
            message: textOf(error?.message) || 'upstream failed',
          }
        : null,
  }
}
