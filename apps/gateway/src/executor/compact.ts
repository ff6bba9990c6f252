import type { Upstream } from '../upstream/upstream.js'
import type { GatewayError } from '../wire/errors.js'
import { newId } from '../wire/ids.js'
import { isObject, type JsonObject } from '../wire/json.js'
import type { CompactRequest } from '../wire/request.js'
import { encodeCompaction, modelInput, toInputItem } from './items.js'
import { now, withId } from './stored-items.js'

/**
 * The history summarized by the model into one compaction item, after the user messages, as
 * OpenAI's `POST /v1/responses/compact` answers. Nothing is stored.
 */
export async function compactHistory(
  upstream: Upstream,
  items: JsonObject[],
  request: CompactRequest,
  signal: AbortSignal,
): Promise<JsonObject | GatewayError> {
  const visible = modelInput(
    items.flatMap((item) => {
      const converted = toInputItem(item)
      return converted ? [converted] : []
    }),
  )
  if (!Array.isArray(visible)) return visible
  const instructions = [
    'Summarize the conversation so far for your own later use: the goal, decisions, facts learned, tool results that matter, and what remains to do. Be complete but brief.',
    request.instructions ?? '',
  ]
    .filter((line) => line !== '')
    .join('\n\n')
  const reply = await upstream.createResponse(
    { model: request.model, input: visible, instructions, store: false, stream: false },
    signal,
  )
  if (reply.kind === 'error') return reply.error
  if (reply.kind !== 'json' || !isObject(reply.body) || !Array.isArray(reply.body.output))
    return {
      status: 502,
      type: 'upstream_error',
      message: 'The upstream summary has no output.',
      code: 'upstream_protocol',
    }
  const summary = reply.body.output
    .filter((item) => isObject(item) && item.type === 'message' && Array.isArray(item.content))
    .flatMap((item) => (item as { content: unknown[] }).content)
    .filter((part): part is JsonObject => isObject(part) && part.type === 'output_text')
    .map((part) => String(part.text ?? ''))
    .join('')
  if (summary.trim() === '')
    return {
      status: 502,
      type: 'upstream_error',
      message: 'The upstream model returned an empty summary.',
      code: 'empty_summary',
    }
  const users = items.filter((item) => item.type === 'message' && item.role === 'user').map(withId)
  return {
    id: newId('resp'),
    object: 'response.compaction',
    created_at: now(),
    output: [
      ...users,
      { id: newId('cmp'), type: 'compaction', encrypted_content: encodeCompaction(summary) },
    ],
    usage: isObject(reply.body.usage)
      ? reply.body.usage
      : {
          input_tokens: 0,
          output_tokens: 0,
          total_tokens: 0,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens_details: { reasoning_tokens: 0 },
        },
  }
}
