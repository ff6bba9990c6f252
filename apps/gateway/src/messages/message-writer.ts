import type { GatewayLimits } from '../config.js'
import { newId } from '../wire/ids.js'
import { type JsonObject, jsonBytes } from '../wire/json.js'
import { UsageTotals } from './blocks.js'
import { anthropicErrorType, type MessagesResult, type MessagesSink } from './message-result.js'
import type { MessagesRequest } from './request.js'
import { BlockStream } from './stream-blocks.js'
import type { MessagesTools } from './tool-types.js'

/**
 * The message one request answers with, as it grows over the rounds: its content and usage, and
 * with a sink its events (`message_start`, the blocks, `message_delta`, `message_stop`) within the
 * stream-event ceiling. Sends stop once the client left or an event would be over the ceiling.
 */
export class MessageWriter {
  readonly content: JsonObject[] = []
  readonly usage = new UsageTotals()
  readonly blocks: BlockStream
  /** Whether an upstream round answered yet (after that, trouble ends the stream instead of a status). */
  started = false
  clientGone = false
  eventLimitHit = false
  readonly #message: JsonObject

  constructor(
    request: MessagesRequest,
    readonly sink: MessagesSink | undefined,
    private readonly limits: GatewayLimits,
    private readonly tools: MessagesTools,
  ) {
    this.#message = {
      id: newId('msg'),
      type: 'message',
      role: 'assistant',
      model: request.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    }
    this.blocks = new BlockStream(this.send)
  }

  /** Sends one event; false when there is no sink, the client left, or the event is over the ceiling. */
  readonly send = async (event: string, data: JsonObject): Promise<boolean> => {
    if (!this.sink || this.clientGone || this.eventLimitHit) return false
    if (jsonBytes(data) > this.limits.maxStreamEventBytes) {
      this.eventLimitHit = true
      return false
    }
    if (!(await this.sink.send(event, data))) this.clientGone = true
    return !this.clientGone
  }

  /** The first round answered: the stream opens with `message_start` and a ping. */
  async start(): Promise<void> {
    const first = !this.started
    this.started = true
    if (!this.sink || !first) return
    await this.send('message_start', { type: 'message_start', message: this.#message })
    await this.send('ping', { type: 'ping' })
  }

  /** The message, ended with `stopReason` (closing the stream with a sink). */
  async finish(stopReason: string): Promise<MessagesResult> {
    const final = {
      ...this.#message,
      content: this.content,
      stop_reason: stopReason,
      usage: this.usage.toJson(this.tools.serverToolUse()),
    }
    if (this.sink) {
      await this.blocks.closeAll()
      await this.send('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: final.usage,
      })
      await this.send('message_stop', { type: 'message_stop' })
      if (this.clientGone) return { kind: 'aborted' }
    }
    return { kind: 'message', message: final }
  }

  /** A failure: an error status before anything was streamed, else an `error` event ending the stream. */
  async fail(status: number, code: string, text: string): Promise<MessagesResult> {
    if (!this.started || !this.sink)
      return { kind: 'error', error: { status, type: 'upstream_error', message: text, code } }
    await this.send('error', { type: 'error', error: { type: anthropicErrorType(status), message: text } })
    return { kind: 'message', message: { ...this.#message, content: this.content, stop_reason: null } }
  }
}
