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

interface Open {
  index: number
  id: string
  item: JsonObject
  text: string
  /** For a tool call: its id and Chat function name. */
  call?: { callId: string; name: string }
}

/** Translates one Chat SSE byte stream into Responses SSE bytes. */
export async function* responsesOfChatStream(
  chunks: AsyncIterable<Uint8Array>,
  maxLineBytes: number,
  kinds: ReadonlyMap<string, ChatToolKind> = new Map(),
): AsyncGenerator<Uint8Array> {
  const decoder = new SseDecoder(maxLineBytes)
  const out: string[] = []
  const emit = (type: string, data: JsonObject): void => {
    out.push(sseFrame(type, JSON.stringify({ type, ...data })))
  }
  let started = false
  let next = 0
  let current: Open | undefined
  const tools = new Map<number, Open>()
  const closed: Open[] = []
  let finish: unknown
  let usage: JsonObject | null = null
  let ended = false

  const open = (item: JsonObject): Open => {
    const entry = { index: next++, id: String(item.id), item, text: '' }
    emit('response.output_item.added', { output_index: entry.index, item })
    return entry
  }
  const closeCurrent = (): void => {
    if (!current) return
    const { index, id, item, text } = current
    if (item.type === 'message') {
      const part = { type: 'output_text', text, annotations: [] }
      emit('response.output_text.done', { output_index: index, item_id: id, content_index: 0, text })
      emit('response.content_part.done', { output_index: index, item_id: id, content_index: 0, part })
      emit('response.output_item.done', {
        output_index: index,
        item: { ...item, status: 'completed', content: [part] },
      })
    } else {
      emit('response.reasoning_text.done', { output_index: index, item_id: id, content_index: 0, text })
      emit('response.output_item.done', {
        output_index: index,
        item: { ...item, content: [{ type: 'reasoning_text', text }] },
      })
    }
    closed.push(current)
    current = undefined
  }
  const handle = (data: string): void => {
    let chunk: unknown
    try {
      chunk = JSON.parse(data)
    } catch {
      emit('error', {
        code: 'upstream_protocol',
        message: 'The upstream Chat stream carried a chunk that is not JSON.',
      })
      ended = true
      return
    }
    if (!isObject(chunk)) return
    if (isObject(chunk.error)) {
      emit('error', {
        code: String(chunk.error.code ?? 'upstream_error'),
        message: String(chunk.error.message ?? 'upstream error'),
      })
      ended = true
      return
    }
    if (!started) {
      started = true
      emit('response.created', {
        response: { id: String(chunk.id ?? 'chat'), object: 'response', status: 'in_progress' },
      })
    }
    if (isObject(chunk.usage)) usage = usageOfChat(chunk.usage)
    const choice = Array.isArray(chunk.choices) && isObject(chunk.choices[0]) ? chunk.choices[0] : undefined
    if (!choice) return
    const delta = isObject(choice.delta) ? choice.delta : {}
    const reasoning = delta.reasoning_content ?? delta.reasoning
    if (typeof reasoning === 'string' && reasoning !== '') {
      if (current?.item.type !== 'reasoning') {
        closeCurrent()
        current = open({ id: `rs_chat_${next}`, type: 'reasoning', summary: [] })
      }
      current.text += reasoning
      emit('response.reasoning_text.delta', {
        output_index: current.index,
        item_id: current.id,
        content_index: 0,
        delta: reasoning,
      })
    }
    if (typeof delta.content === 'string' && delta.content !== '') {
      if (current?.item.type !== 'message') {
        closeCurrent()
        current = open({
          id: `msg_chat_${next}`,
          type: 'message',
          role: 'assistant',
          status: 'in_progress',
          content: [],
        })
        emit('response.content_part.added', {
          output_index: current.index,
          item_id: current.id,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [] },
        })
      }
      current.text += delta.content
      emit('response.output_text.delta', {
        output_index: current.index,
        item_id: current.id,
        content_index: 0,
        delta: delta.content,
      })
    }
    if (Array.isArray(delta.tool_calls))
      for (const call of delta.tool_calls) {
        if (!isObject(call)) continue
        const key = typeof call.index === 'number' ? call.index : tools.size
        const fn = isObject(call.function) ? call.function : {}
        let entry = tools.get(key)
        if (!entry) {
          closeCurrent()
          const id = `fc_chat_${next}`
          const callId = String(call.id ?? `call_${key}`)
          const name = String(fn.name ?? '')
          // Opened as the item its tool was declared as (a custom tool's call is a custom_tool_call).
          const { status: _status, ...item } = itemOfChatCall(kinds, { id, callId, name, arguments: '' })
          if (item.type === 'custom_tool_call') item.input = ''
          entry = open({ ...item, ...(item.type === 'custom_tool_call' ? {} : { status: 'in_progress' }) })
          entry.call = { callId, name }
          tools.set(key, entry)
        }
        const piece = typeof fn.arguments === 'string' ? fn.arguments : ''
        if (piece !== '') {
          entry.text += piece
          // Only a function's arguments stream as they are; other items are decoded whole at the end.
          if (entry.item.type === 'function_call')
            emit('response.function_call_arguments.delta', {
              output_index: entry.index,
              item_id: entry.id,
              delta: piece,
            })
        }
      }
    if (choice.finish_reason !== null && choice.finish_reason !== undefined) finish = choice.finish_reason
  }
  const finishAll = (): void => {
    if (ended || !started || finish === undefined) return
    closeCurrent()
    for (const entry of [...tools.values()].sort((a, b) => a.index - b.index)) {
      const call = entry.call ?? { callId: '', name: '' }
      const item = itemOfChatCall(kinds, { id: entry.id, ...call, arguments: entry.text })
      if (item.type === 'function_call')
        emit('response.function_call_arguments.done', {
          output_index: entry.index,
          item_id: entry.id,
          arguments: entry.text,
        })
      if (item.type === 'custom_tool_call') {
        // The input is known only once the arguments are whole: one delta carries all of it.
        emit('response.custom_tool_call_input.delta', {
          output_index: entry.index,
          item_id: entry.id,
          delta: item.input ?? '',
        })
        emit('response.custom_tool_call_input.done', {
          output_index: entry.index,
          item_id: entry.id,
          input: item.input ?? '',
        })
      }
      emit('response.output_item.done', { output_index: entry.index, item })
    }
    const status = statusOfFinish(finish)
    const response = {
      object: 'response',
      status: status.status,
      incomplete_details: status.reason ? { reason: status.reason } : null,
      usage,
    }
    emit(status.status === 'completed' ? 'response.completed' : 'response.incomplete', { response })
    ended = true
  }
  const flush = function* (): Generator<Uint8Array> {
    if (out.length > 0) yield Buffer.from(out.splice(0).join(''))
  }
  for await (const bytes of chunks) {
    const fed = decoder.push(bytes)
    if (!fed.ok) {
      // Pass the overlong line on: the Responses decoder downstream applies the same ceiling.
      yield Buffer.from(`data: ${'x'.repeat(maxLineBytes + 1)}`)
      return
    }
    for (const message of fed.messages) {
      if (message.kind === 'done') finishAll()
      else if (!ended) handle(message.data)
    }
    yield* flush()
    if (ended) return
  }
  for (const message of decoder.end()) if (message.kind === 'event' && !ended) handle(message.data)
  finishAll()
  yield* flush()
}
