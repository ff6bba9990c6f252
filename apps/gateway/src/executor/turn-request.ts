/**
 * What a turn says about its request: the public response object it starts from (the echoed request
 * fields) and the body of each upstream round (the request's own fields, minus what the gateway
 * answers itself, with the round's history and tools).
 */
import type { JsonObject } from '../wire/json.js'
import type { CreateResponseRequest } from '../wire/request.js'

/** Request fields the gateway answers itself, never sent upstream. */
const GATEWAY_FIELDS = new Set([
  'store',
  'previous_response_id',
  'conversation',
  'stream',
  'input',
  'tools',
  'max_tool_calls',
  'metadata',
  'background',
])

/** Request fields echoed on the public response object, as OpenAI does. */
const ECHOED = [
  'instructions',
  'tool_choice',
  'parallel_tool_calls',
  'temperature',
  'top_p',
  'max_output_tokens',
  'max_tool_calls',
  'text',
  'reasoning',
  'truncation',
  'user',
] as const

/** The public response object before its output: what `response.created` carries (and a queued background response). */
export function responseSkeleton(
  request: CreateResponseRequest,
  responseId: string,
  createdAt: number,
): JsonObject {
  const echoed: JsonObject = {}
  for (const key of ECHOED) {
    const value = request.raw[key]
    if (value !== undefined) echoed[key] = value
  }
  return {
    id: responseId,
    object: 'response',
    created_at: createdAt,
    status: 'in_progress',
    model: request.model,
    output: [],
    usage: null,
    error: null,
    incomplete_details: null,
    instructions: null,
    tools: request.tools,
    tool_choice: 'auto',
    parallel_tool_calls: false,
    ...echoed,
    previous_response_id: request.previousResponseId,
    conversation: request.conversationId === null ? null : { id: request.conversationId },
    metadata: request.metadata,
    store: request.store,
    background: request.background,
  }
}

/** One round's upstream body: `stream` as the client asked, nothing stored upstream, `tool_choice` forced only in the first round. */
export function upstreamBody(
  request: CreateResponseRequest,
  input: JsonObject[],
  tools: JsonObject[],
  round: { index: number; stream: boolean },
): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (const key in request.raw) if (!GATEWAY_FIELDS.has(key)) body[key] = request.raw[key]
  body.input = input
  body.store = false
  body.stream = round.stream
  if (tools.length > 0) body.tools = tools
  if (round.index > 0) body.tool_choice = 'auto'
  return body
}
