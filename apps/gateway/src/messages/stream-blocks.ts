/**
 * Anthropic's content-block events for one streamed message: blocks get contiguous indexes across
 * every upstream round, each opened with `content_block_start`, grown with `content_block_delta`
 * (`text_delta`, `thinking_delta`, `signature_delta`, `input_json_delta`) and closed with
 * `content_block_stop`. Upstream Responses item events are mapped onto blocks here; gateway-owned
 * calls are suppressed (the loop shows them as server tool blocks once the round is complete).
 */
import type { Slot } from '../sse/round-accumulator.js'
import type { UpstreamEvent } from '../sse/upstream-event.js'
import { isObject, type JsonObject } from '../wire/json.js'
import { thinkingText } from './blocks.js'

/** Sends one SSE event; false when the client is gone (or the event was over its limit). */
export type EventSender = (event: string, data: JsonObject) => Promise<boolean>

interface OpenBlock {
  index: number
  streamed: boolean
}

/** Block bookkeeping for one message. */
export class BlockStream {
  readonly #send: EventSender
  #next = 0
  readonly #open = new Map<string, OpenBlock>()
  readonly #suppressed = new Set<number>()
  /** Keys whose block was already closed this round (never reopened by a late `done`). */
  readonly #closed = new Set<string>()
  /** Upstream output indexes of this round whose blocks were streamed (so they are not re-sent). */
  #round = 0

  constructor(send: EventSender) {
    this.#send = send
  }

  /** Starts a new upstream round (its output indexes start at 0 again). */
  newRound(): void {
    this.#round += 1
    this.#suppressed.clear()
    this.#closed.clear()
  }

  /** Sends a whole block: start (with the block), one delta if given, stop. */
  async whole(block: JsonObject, delta?: JsonObject): Promise<void> {
    const index = this.#next++
    await this.#send('content_block_start', { type: 'content_block_start', index, content_block: block })
    if (delta) await this.#send('content_block_delta', { type: 'content_block_delta', index, delta })
    await this.#send('content_block_stop', { type: 'content_block_stop', index })
  }

  async #start(key: string, block: JsonObject): Promise<OpenBlock> {
    const existing = this.#open.get(key)
    if (existing) return existing
    const open = { index: this.#next++, streamed: false }
    this.#open.set(key, open)
    await this.#send('content_block_start', {
      type: 'content_block_start',
      index: open.index,
      content_block: block,
    })
    return open
  }

  async #delta(key: string, block: JsonObject, delta: JsonObject): Promise<void> {
    const open = await this.#start(key, block)
    open.streamed = true
    await this.#send('content_block_delta', { type: 'content_block_delta', index: open.index, delta })
  }

  async #stop(key: string): Promise<void> {
    const open = this.#open.get(key)
    if (!open) return
    this.#open.delete(key)
    this.#closed.add(key)
    await this.#send('content_block_stop', { type: 'content_block_stop', index: open.index })
  }

  async #stopAll(prefix: string): Promise<void> {
    for (const key of [...this.#open.keys()].filter((key) => key.startsWith(prefix))) await this.#stop(key)
  }

  /** Maps one upstream item event; `gatewayOwned` says whether a function name runs in the gateway. */
  async item(event: UpstreamEvent, slot: Slot, gatewayOwned: (name: string) => boolean): Promise<void> {
    const { type, payload } = event
    const base = `${this.#round}:${slot.index}:`
    if (this.#suppressed.has(slot.index)) return
    const contentIndex = typeof payload.content_index === 'number' ? payload.content_index : 0
    switch (slot.type) {
      case 'message': {
        const key = `${base}${contentIndex}`
        const text = { type: 'text', text: '' }
        if (type === 'response.content_part.added') {
          if (
            isObject(payload.part) &&
            (payload.part.type === 'output_text' || payload.part.type === 'refusal')
          )
            await this.#start(key, text)
        } else if (type === 'response.output_text.delta' || type === 'response.refusal.delta') {
          const delta = typeof payload.delta === 'string' ? payload.delta : ''
          if (delta !== '') await this.#delta(key, text, { type: 'text_delta', text: delta })
        } else if (type === 'response.content_part.done') {
          await this.#fillText(key, payload.part)
          await this.#stop(key)
        } else if (type === 'response.output_item.done') {
          const content = Array.isArray(slot.item.content) ? slot.item.content : []
          for (const [index, part] of content.entries()) {
            const partKey = `${base}${index}`
            if (!this.#open.has(partKey) && !this.#closed.has(partKey) && isObject(part)) {
              await this.#fillText(partKey, part)
            }
            await this.#stop(partKey)
          }
          await this.#stopAll(base)
        }
        return
      }
      case 'reasoning': {
        const key = `${base}r`
        const thinking = { type: 'thinking', thinking: '', signature: '' }
        if (type === 'response.output_item.added') await this.#start(key, thinking)
        else if (
          type === 'response.reasoning_summary_text.delta' ||
          type === 'response.reasoning_text.delta'
        ) {
          const delta = typeof payload.delta === 'string' ? payload.delta : ''
          if (delta !== '') await this.#delta(key, thinking, { type: 'thinking_delta', thinking: delta })
        } else if (type === 'response.output_item.done') {
          const open = await this.#start(key, thinking)
          const full = thinkingText(slot.item)
          if (!open.streamed && full !== '')
            await this.#delta(key, thinking, { type: 'thinking_delta', thinking: full })
          const signature = slot.item.encrypted_content
          if (typeof signature === 'string' && signature !== '')
            await this.#delta(key, thinking, { type: 'signature_delta', signature })
          await this.#stop(key)
        }
        return
      }
      case 'function_call': {
        const key = `${base}f`
        if (type === 'response.output_item.added' && gatewayOwned(String(slot.item.name ?? ''))) {
          this.#suppressed.add(slot.index)
          return
        }
        const block = {
          type: 'tool_use',
          id: String(slot.item.call_id ?? slot.item.id ?? ''),
          name: String(slot.item.name ?? ''),
          input: {},
        }
        if (type === 'response.output_item.added') await this.#start(key, block)
        else if (type === 'response.function_call_arguments.delta') {
          const delta = typeof payload.delta === 'string' ? payload.delta : ''
          if (delta !== '') await this.#delta(key, block, { type: 'input_json_delta', partial_json: delta })
        } else if (type === 'response.output_item.done') {
          const open = await this.#start(key, block)
          const args = typeof slot.item.arguments === 'string' ? slot.item.arguments : ''
          if (!open.streamed && args !== '')
            await this.#delta(key, block, { type: 'input_json_delta', partial_json: args })
          await this.#stop(key)
        }
        return
      }
      default:
        // Items without an Anthropic block (e.g. an upstream's own tool records) are not shown.
        return
    }
  }

  async #fillText(key: string, part: unknown): Promise<void> {
    const open = this.#open.get(key)
    if (open?.streamed || this.#closed.has(key) || !isObject(part)) return
    const text = String(part.text ?? part.refusal ?? '')
    if (text !== '') await this.#delta(key, { type: 'text', text: '' }, { type: 'text_delta', text })
  }

  /** Closes whatever the round left open (a truncated round). */
  async closeAll(): Promise<void> {
    await this.#stopAll('')
  }
}
