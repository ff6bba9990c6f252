/** A scripted response in OpenAI Responses wire format: typed SSE events, or one JSON response object. */
import { type ResolvedBlock, type ResolvedResponse, splitText } from '../script.js'
import { type EncodeOptions, sseFrame } from './sse.js'

function itemOf(block: ResolvedBlock, index: number, id: string): object | undefined {
  switch (block.type) {
    case 'text':
      return {
        id: `msg_${id}_${index}`,
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: block.text, annotations: [], logprobs: [] }],
      }
    case 'thinking':
      return {
        id: block.encrypted.id,
        type: 'reasoning',
        summary: block.thinking === '' ? [] : [{ type: 'summary_text', text: block.thinking }],
        encrypted_content: block.encrypted.content,
      }
    case 'tool_use':
      return {
        id: `fc_${id}_${index}`,
        type: 'function_call',
        status: 'completed',
        call_id: block.id,
        name: block.name,
        arguments: block.argsText,
      }
    case 'redacted_thinking':
      return undefined
    default: {
      const unreachable: never = block
      return unreachable
    }
  }
}

function responseObject(response: ResolvedResponse, id: string, model: string, done: boolean): object {
  const output = done
    ? response.blocks.flatMap((block, index) => {
        const item = itemOf(block, index, id)
        return item ? [item] : []
      })
    : []
  const incomplete = response.stopReason === 'max_tokens' || response.stopReason === 'refusal'
  const { usage } = response
  return {
    id,
    object: 'response',
    created_at: 1_700_000_000,
    status: done ? (incomplete ? 'incomplete' : 'completed') : 'in_progress',
    error: null,
    incomplete_details:
      done && incomplete
        ? { reason: response.stopReason === 'max_tokens' ? 'max_output_tokens' : 'content_filter' }
        : null,
    model,
    output,
    parallel_tool_calls: true,
    store: false,
    usage: done
      ? {
          input_tokens: usage.inputTokens + usage.cacheReadTokens,
          input_tokens_details: { cached_tokens: usage.cacheReadTokens },
          output_tokens: usage.outputTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: usage.inputTokens + usage.cacheReadTokens + usage.outputTokens,
        }
      : null,
  }
}

/** The SSE frames of a streamed Responses response. */
export function responsesFrames(response: ResolvedResponse, id: string, options: EncodeOptions): string[] {
  const textSize = options.textChunkSize ?? 16
  const argsSize = options.argsChunkSize ?? 7
  let sequence = 0
  const frames: string[] = []
  const emit = (type: string, body: object): void => {
    frames.push(sseFrame(type, { type, sequence_number: sequence++, ...body }))
  }
  emit('response.created', { response: responseObject(response, id, options.model, false) })
  emit('response.in_progress', { response: responseObject(response, id, options.model, false) })
  let outputIndex = 0
  for (const [index, block] of response.blocks.entries()) {
    const item = itemOf(block, index, id) as Record<string, unknown> | undefined
    if (!item) continue
    const output_index = outputIndex++
    const itemId = item.id as string
    switch (block.type) {
      case 'text':
        emit('response.output_item.added', {
          output_index,
          item: { ...item, status: 'in_progress', content: [] },
        })
        emit('response.content_part.added', {
          item_id: itemId,
          output_index,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
        })
        for (const piece of splitText(block.text, textSize)) {
          emit('response.output_text.delta', {
            item_id: itemId,
            output_index,
            content_index: 0,
            delta: piece,
            logprobs: [],
          })
        }
        emit('response.output_text.done', {
          item_id: itemId,
          output_index,
          content_index: 0,
          text: block.text,
          logprobs: [],
        })
        emit('response.content_part.done', {
          item_id: itemId,
          output_index,
          content_index: 0,
          part: { type: 'output_text', text: block.text, annotations: [], logprobs: [] },
        })
        break
      case 'thinking':
        emit('response.output_item.added', { output_index, item: { ...item, summary: [] } })
        if (block.thinking !== '') {
          emit('response.reasoning_summary_part.added', {
            item_id: itemId,
            output_index,
            summary_index: 0,
            part: { type: 'summary_text', text: '' },
          })
          for (const piece of splitText(block.thinking, textSize)) {
            emit('response.reasoning_summary_text.delta', {
              item_id: itemId,
              output_index,
              summary_index: 0,
              delta: piece,
            })
          }
          emit('response.reasoning_summary_text.done', {
            item_id: itemId,
            output_index,
            summary_index: 0,
            text: block.thinking,
          })
          emit('response.reasoning_summary_part.done', {
            item_id: itemId,
            output_index,
            summary_index: 0,
            part: { type: 'summary_text', text: block.thinking },
          })
        }
        break
      case 'tool_use':
        emit('response.output_item.added', {
          output_index,
          item: { ...item, status: 'in_progress', arguments: '' },
        })
        for (const piece of splitText(block.argsText, argsSize)) {
          emit('response.function_call_arguments.delta', { item_id: itemId, output_index, delta: piece })
        }
        emit('response.function_call_arguments.done', {
          item_id: itemId,
          output_index,
          arguments: block.argsText,
        })
        break
      case 'redacted_thinking':
        continue
      default: {
        const unreachable: never = block
        throw new Error(`unknown block ${JSON.stringify(unreachable)}`)
      }
    }
    emit('response.output_item.done', { output_index, item })
  }
  const final = responseObject(response, id, options.model, true) as { status: string }
  emit(final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final })
  return frames
}

/** The JSON body of a non-streamed Responses response. */
export function responsesJson(response: ResolvedResponse, id: string, options: EncodeOptions): object {
  return responseObject(response, id, options.model, true)
}
