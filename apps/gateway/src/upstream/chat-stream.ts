/**
 * Chat Completions chunks → Responses stream events, so one accumulator validates both: content,
 * reasoning (`reasoning_content` or `reasoning`) and tool calls (by their `index`, interleaved or not;
 * each as the item its tool was declared as, chat-tools.ts) open items with `output_item.added`, deltas fold into them, and `[DONE]` closes every item and ends
 * with `response.completed` or `response.incomplete` (finish reason `length` / `content_filter`).
 * A stream that stops before a finish reason gets no terminal event, so the accumulator fails it.
 */
import { SseDecoder } from '../sse/parse-sse.js'
import { sseFrame } from '../sse/write-sse.js'
import { isObject, type JsonObject } from '../wire/json.js'
import { statusOfFinish, usageOfChat } from './chat-request.js'
import { type ChatToolKind, itemOfChatCall } from './chat-tools.js'
import type { ChunkSource } from './chunk-source.js'

interface Open {
  index: number
  id: string
  item: JsonObject
  text: string
  /** For a tool call: its id and Chat function name. */
  call?: { callId: string; name: string }
}

/** One Chat stream's translation: Chat SSE bytes in, Responses SSE text out. */
class ChatStreamTranslator {
  readonly #decoder: SseDecoder
  readonly #maxLineBytes: number
  readonly #kinds: ReadonlyMap<string, ChatToolKind>
  /** Frames produced since the last `take`. */
  #out = ''
  #started = false
  #next = 0
  #current: Open | undefined
  readonly #tools = new Map<number, Open>()
  #finish: unknown
  #usage: JsonObject | null = null
  /** A terminal or error event was produced (or the stream was refused): nothing more follows. */
  ended = false

  constructor(maxLineBytes: number, kinds: ReadonlyMap<string, ChatToolKind>) {
    this.#decoder = new SseDecoder(maxLineBytes)
    this.#maxLineBytes = maxLineBytes
    this.#kinds = kinds
  }

  /** Feeds Chat bytes; returns the Responses SSE text they produced. */
  push(bytes: Uint8Array): string {
    const fed = this.#decoder.push(bytes)
    if (!fed.ok) {
      // Pass the overlong line on: the Responses decoder downstream applies the same ceiling.
      this.ended = true
      return `data: ${'x'.repeat(this.#maxLineBytes + 1)}`
    }
    for (const message of fed.messages) {
      if (message.kind === 'done') this.#finishAll()
      else if (!this.ended) this.#chunk(message.data)
    }
    return this.#take()
  }

  /** The Chat body ended: a last event without its blank line, then the terminal event if a finish reason came. */
  end(): string {
    for (const message of this.#decoder.end())
      if (message.kind === 'event' && !this.ended) this.#chunk(message.data)
    this.#finishAll()
    return this.#take()
  }

  #take(): string {
    const out = this.#out
    this.#out = ''
    return out
  }

  #emit(type: string, data: JsonObject): void {
    this.#out += sseFrame(type, JSON.stringify({ type, ...data }))
  }

  #error(code: string, message: string): void {
    this.#emit('error', { code, message })
    this.ended = true
  }

  /** One Chat chunk (its `data`). */
  #chunk(data: string): void {
    let chunk: unknown
    try {
      chunk = JSON.parse(data)
    } catch {
      this.#error('upstream_protocol', 'The upstream Chat stream carried a chunk that is not JSON.')
      return
    }
    if (!isObject(chunk)) return
    if (isObject(chunk.error)) {
      this.#error(
        String(chunk.error.code ?? 'upstream_error'),
        String(chunk.error.message ?? 'upstream error'),
      )
      return
    }
    if (!this.#started) {
      this.#started = true
      this.#emit('response.created', {
        response: { id: String(chunk.id ?? 'chat'), object: 'response', status: 'in_progress' },
      })
    }
    if (isObject(chunk.usage)) this.#usage = usageOfChat(chunk.usage)
    const choice = Array.isArray(chunk.choices) && isObject(chunk.choices[0]) ? chunk.choices[0] : undefined
    if (!choice) return
    const delta = isObject(choice.delta) ? choice.delta : {}
    const reasoning = delta.reasoning_content ?? delta.reasoning
    if (typeof reasoning === 'string' && reasoning !== '') this.#reasoning(reasoning)
    if (typeof delta.content === 'string' && delta.content !== '') this.#content(delta.content)
    if (Array.isArray(delta.tool_calls))
      for (const call of delta.tool_calls) if (isObject(call)) this.#toolCall(call)
    if (choice.finish_reason !== null && choice.finish_reason !== undefined)
      this.#finish = choice.finish_reason
  }

  #open(item: JsonObject): Open {
    const entry = { index: this.#next++, id: String(item.id), item, text: '' }
    this.#emit('response.output_item.added', { output_index: entry.index, item })
    return entry
  }

  #reasoning(delta: string): void {
    if (this.#current?.item.type !== 'reasoning') {
      this.#closeCurrent()
      this.#current = this.#open({ id: `rs_chat_${this.#next}`, type: 'reasoning', summary: [] })
    }
    const current = this.#current
    current.text += delta
    this.#emit('response.reasoning_text.delta', {
      output_index: current.index,
      item_id: current.id,
      content_index: 0,
      delta,
    })
  }

  #content(delta: string): void {
    if (this.#current?.item.type !== 'message') {
      this.#closeCurrent()
      const opened = this.#open({
        id: `msg_chat_${this.#next}`,
        type: 'message',
        role: 'assistant',
        status: 'in_progress',
        content: [],
      })
      this.#current = opened
      this.#emit('response.content_part.added', {
        output_index: opened.index,
        item_id: opened.id,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      })
    }
    const current = this.#current
    current.text += delta
    this.#emit('response.output_text.delta', {
      output_index: current.index,
      item_id: current.id,
      content_index: 0,
      delta,
    })
  }

  #toolCall(call: JsonObject): void {
    const key = typeof call.index === 'number' ? call.index : this.#tools.size
    const fn = isObject(call.function) ? call.function : {}
    let entry = this.#tools.get(key)
    if (!entry) {
      this.#closeCurrent()
      const id = `fc_chat_${this.#next}`
      const callId = String(call.id ?? `call_${key}`)
      const name = String(fn.name ?? '')
      // Opened as the item its tool was declared as (a custom tool's call is a custom_tool_call).
      const { status: _status, ...item } = itemOfChatCall(this.#kinds, { id, callId, name, arguments: '' })
      if (item.type === 'custom_tool_call') item.input = ''
      entry = this.#open({ ...item, ...(item.type === 'custom_tool_call' ? {} : { status: 'in_progress' }) })
      entry.call = { callId, name }
      this.#tools.set(key, entry)
    }
    const piece = typeof fn.arguments === 'string' ? fn.arguments : ''
    if (piece === '') return
    entry.text += piece
    // Only a function's arguments stream as they are; other items are decoded whole at the end.
    if (entry.item.type === 'function_call')
      this.#emit('response.function_call_arguments.delta', {
        output_index: entry.index,
        item_id: entry.id,
        delta: piece,
      })
  }

  #closeCurrent(): void {
    const current = this.#current
    if (!current) return
    const { index, id, item, text } = current
    if (item.type === 'message') {
      const part = { type: 'output_text', text, annotations: [] }
      this.#emit('response.output_text.done', { output_index: index, item_id: id, content_index: 0, text })
      this.#emit('response.content_part.done', { output_index: index, item_id: id, content_index: 0, part })
      this.#emit('response.output_item.done', {
        output_index: index,
        item: { ...item, status: 'completed', content: [part] },
      })
    } else {
      this.#emit('response.reasoning_text.done', { output_index: index, item_id: id, content_index: 0, text })
      this.#emit('response.output_item.done', {
        output_index: index,
        item: { ...item, content: [{ type: 'reasoning_text', text }] },
      })
    }
    this.#current = undefined
  }

  /** `[DONE]` (or the body's end) after a finish reason: every open item closes, then the terminal event. */
  #finishAll(): void {
    if (this.ended || !this.#started || this.#finish === undefined) return
    this.#closeCurrent()
    for (const entry of [...this.#tools.values()].sort((a, b) => a.index - b.index)) this.#closeCall(entry)
    const status = statusOfFinish(this.#finish)
    const response = {
      object: 'response',
      status: status.status,
      incomplete_details: status.reason ? { reason: status.reason } : null,
      usage: this.#usage,
    }
    this.#emit(status.status === 'completed' ? 'response.completed' : 'response.incomplete', { response })
    this.ended = true
  }

  #closeCall(entry: Open): void {
    const call = entry.call ?? { callId: '', name: '' }
    const item = itemOfChatCall(this.#kinds, { id: entry.id, ...call, arguments: entry.text })
    const at = { output_index: entry.index, item_id: entry.id }
    if (item.type === 'function_call')
      this.#emit('response.function_call_arguments.done', { ...at, arguments: entry.text })
    if (item.type === 'custom_tool_call') {
      // The input is known only once the arguments are whole: one delta carries all of it.
      this.#emit('response.custom_tool_call_input.delta', { ...at, delta: item.input ?? '' })
      this.#emit('response.custom_tool_call_input.done', { ...at, input: item.input ?? '' })
    }
    this.#emit('response.output_item.done', { output_index: entry.index, item })
  }
}

/** Translates one Chat SSE body into a Responses SSE body, read by push like the body it wraps. */
export function responsesOfChatStream(
  chat: ChunkSource,
  maxLineBytes: number,
  kinds: ReadonlyMap<string, ChatToolKind> = new Map(),
): ChunkSource {
  return {
    async read(onChunk) {
      const translator = new ChatStreamTranslator(maxLineBytes, kinds)
      /** The reader stopped: nothing more goes to it. */
      let stopped = false
      const after = (go: boolean): boolean => {
        if (!go) stopped = true
        return go && !translator.ended
      }
      await chat.read((bytes) => {
        const text = translator.push(bytes)
        if (text === '') return !translator.ended
        const verdict = onChunk(Buffer.from(text))
        return verdict instanceof Promise ? verdict.then(after) : after(verdict)
      })
      if (stopped || translator.ended) return
      const text = translator.end()
      if (text !== '') await onChunk(Buffer.from(text))
    },
  }
}
