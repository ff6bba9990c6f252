/**
 * Scripted upstream steps for items the script format has no block for (a `custom_tool_call`, e.g.
 * Codex's freeform `apply_patch`): streamed as the Responses API's SSE events when the request
 * streams, else one JSON response body.
 */
import type { RecordedRequest, ServerStep } from '@z-engine/engine/testing'

/** One custom tool call the model makes. */
export interface CustomCall {
  callId: string
  name: string
  input: string
}

function frame(type: string, body: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`
}

/** A step that answers `request` with one custom tool call (and optional text before it). */
export function customCallStep(request: RecordedRequest, call: CustomCall, number = 1): ServerStep {
  const id = `resp_custom_${number}`
  const item = { id: `ctc_up_${number}`, type: 'custom_tool_call', call_id: call.callId, name: call.name }
  const done = { ...item, status: 'completed', input: call.input }
  const response = (status: string, output: unknown[]) => ({
    id,
    object: 'response',
    created_at: 1_700_000_000,
    status,
    model: String(request.body.model ?? 'scripted-model'),
    output,
    usage:
      status === 'completed'
        ? { input_tokens: 5, output_tokens: 3, total_tokens: 8, input_tokens_details: { cached_tokens: 0 } }
        : null,
  })
  if (request.body.stream !== true)
    return { fault: { type: 'status', status: 200, body: response('completed', [done]) } }
  let sequence = 0
  const emit = (type: string, body: Record<string, unknown>) =>
    frame(type, { sequence_number: sequence++, ...body })
  // Split the input so the deltas have to be folded back together.
  const half = Math.ceil(call.input.length / 2)
  const frames = [
    emit('response.created', { response: response('in_progress', []) }),
    emit('response.in_progress', { response: response('in_progress', []) }),
    emit('response.output_item.added', {
      output_index: 0,
      item: { ...item, status: 'in_progress', input: '' },
    }),
    emit('response.custom_tool_call_input.delta', {
      output_index: 0,
      item_id: item.id,
      delta: call.input.slice(0, half),
    }),
    emit('response.custom_tool_call_input.delta', {
      output_index: 0,
      item_id: item.id,
      delta: call.input.slice(half),
    }),
    emit('response.custom_tool_call_input.done', { output_index: 0, item_id: item.id, input: call.input }),
    emit('response.output_item.done', { output_index: 0, item: done }),
    emit('response.completed', { response: response('completed', [done]) }),
  ]
  return { replay: frames.join('') }
}
