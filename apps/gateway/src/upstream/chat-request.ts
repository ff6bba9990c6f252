/**
 * Responses → Chat Completions, for inference servers that only serve `/v1/chat/completions`: input
 * items become messages (client calls become assistant `tool_calls`, outputs become `tool`
 * messages), client tools become functions (chat-tools.ts), and Responses-only fields are translated or dropped.
 * Fields this table does not know are passed through unchanged (provider extensions).
 */
import { isObject, type JsonObject } from '../wire/json.js'
import {
  addLoadedTools,
  type ChatToolKind,
  type ChatTools,
  chatCallOf,
  chatName,
  chatOutputOf,
  chatToolsOf,
  itemOfChatCall,
} from './chat-tools.js'

/** Responses fields that have no Chat meaning (translated below, or dropped). */
const RESPONSES_ONLY = new Set([
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'max_output_tokens',
  'text',
  'reasoning',
  'truncation',
  'include',
  'store',
  'stream',
  'previous_response_id',
  'conversation',
  'metadata',
  'background',
  'prompt',
  'prompt_cache_key',
  'safety_identifier',
  'max_tool_calls',
])

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .filter((part) => isObject(part) && typeof part.text === 'string')
    .map((part) => String((part as JsonObject).text))
    .join('')
}

function contentOf(content: unknown): string | JsonObject[] {
  if (!Array.isArray(content) || !content.some((part) => isObject(part) && part.type === 'input_image'))
    return textOf(content)
  return content.flatMap((part): JsonObject[] => {
    if (!isObject(part)) return []
    if (part.type === 'input_image' && typeof part.image_url === 'string')
      return [{ type: 'image_url', image_url: { url: part.image_url } }]
    if (typeof part.text === 'string') return [{ type: 'text', text: part.text }]
    return []
  })
}

/** The Chat messages for a Responses input (instructions first, as a system message). */
export function chatMessages(instructions: unknown, input: JsonObject[]): JsonObject[] {
  const messages: JsonObject[] = []
  if (typeof instructions === 'string' && instructions !== '')
    messages.push({ role: 'system', content: instructions })
  for (const item of input) {
    switch (item.type) {
      case 'message': {
        const role = item.role === 'developer' ? 'system' : String(item.role)
        messages.push({
          role,
          content: role === 'assistant' ? textOf(item.content) : contentOf(item.content),
        })
        break
      }
      default: {
        const call = chatCallOf(item)
        if (call) {
          const entry = {
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.arguments },
          }
          const last = messages.at(-1)
          // Parallel calls of one turn are one assistant message with several tool_calls.
          if (last?.role === 'assistant' && Array.isArray(last.tool_calls)) last.tool_calls.push(entry)
          else if (last?.role === 'assistant' && !last.tool_calls) last.tool_calls = [entry]
          else messages.push({ role: 'assistant', content: null, tool_calls: [entry] })
          break
        }
        const output = chatOutputOf(item)
        if (output) messages.push({ role: 'tool', tool_call_id: output.callId, content: output.content })
        // Reasoning and other item types have no Chat input form.
        break
      }
    }
  }
  return messages
}

/**
 * The Chat functions of a Responses upstream body: its declared tools (already checked by
 * `checkChatTools`; what cannot be expressed is left out) and those its input's tool searches loaded.
 */
export function chatToolsFor(body: Record<string, unknown>): ChatTools {
  const declared = Array.isArray(body.tools) ? (body.tools as JsonObject[]) : []
  const result = chatToolsOf(declared.filter((tool) => !('refused' in chatToolsOf([tool]))))
  const tools = 'refused' in result ? { functions: [], kinds: new Map() } : result
  addLoadedTools(tools, Array.isArray(body.input) ? (body.input as JsonObject[]) : [])
  return tools
}

/** A Responses upstream body as a Chat Completions body. */
export function toChatBody(body: Record<string, unknown>): Record<string, unknown> {
  const chat: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(body)) if (!RESPONSES_ONLY.has(key)) chat[key] = value
  chat.messages = chatMessages(
    body.instructions,
    Array.isArray(body.input) ? (body.input as JsonObject[]) : [],
  )
  const tools = chatToolsFor(body)
  if (tools.functions.length > 0) chat.tools = tools.functions
  const choice = body.tool_choice
  if (typeof choice === 'string') chat.tool_choice = choice
  else if (isObject(choice) && (choice.type === 'function' || choice.type === 'custom'))
    chat.tool_choice = {
      type: 'function',
      function: { name: chatName(String(choice.name), choice.namespace) },
    }
  if (typeof body.max_output_tokens === 'number') chat.max_tokens = body.max_output_tokens
  if (isObject(body.reasoning) && typeof body.reasoning.effort === 'string')
    chat.reasoning_effort = body.reasoning.effort
  const format = isObject(body.text) && isObject(body.text.format) ? body.text.format : undefined
  if (format?.type === 'json_schema')
    chat.response_format = {
      type: 'json_schema',
      json_schema: {
        name: format.name,
        schema: format.schema,
        ...(format.strict !== undefined ? { strict: format.strict } : {}),
      },
    }
  else if (format?.type === 'json_object') chat.response_format = { type: 'json_object' }
  chat.stream = body.stream === true
  if (body.stream === true) chat.stream_options = { include_usage: true }
  return chat
}

/** Chat usage as Responses usage. */
export function usageOfChat(usage: unknown): JsonObject | null {
  if (!isObject(usage)) return null
  const prompt = Number(usage.prompt_tokens ?? 0)
  const completion = Number(usage.completion_tokens ?? 0)
  const promptDetails = isObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {}
  const completionDetails = isObject(usage.completion_tokens_details) ? usage.completion_tokens_details : {}
  return {
    input_tokens: prompt,
    output_tokens: completion,
    total_tokens: Number(usage.total_tokens ?? prompt + completion),
    input_tokens_details: { cached_tokens: Number(promptDetails.cached_tokens ?? 0) },
    output_tokens_details: { reasoning_tokens: Number(completionDetails.reasoning_tokens ?? 0) },
  }
}

/** Why a Chat choice stopped, as a Responses status. */
export function statusOfFinish(reason: unknown): {
  status: 'completed' | 'incomplete'
  reason: string | null
} {
  if (reason === 'length') return { status: 'incomplete', reason: 'max_output_tokens' }
  if (reason === 'content_filter') return { status: 'incomplete', reason: 'content_filter' }
  return { status: 'completed', reason: null }
}

/** A non-streamed Chat body as a Responses body (reasoning, message, then the tool calls as their items). */
export function responsesOfChatJson(body: unknown, kinds: ReadonlyMap<string, ChatToolKind>): unknown {
  if (!isObject(body) || !Array.isArray(body.choices)) return body
  const choice = body.choices[0]
  const message = isObject(choice) && isObject(choice.message) ? choice.message : {}
  const output: JsonObject[] = []
  const reasoning = message.reasoning_content ?? message.reasoning
  if (typeof reasoning === 'string' && reasoning !== '')
    output.push({
      id: 'rs_chat',
      type: 'reasoning',
      summary: [],
      content: [{ type: 'reasoning_text', text: reasoning }],
    })
  if (typeof message.content === 'string' && message.content !== '')
    output.push({
      id: 'msg_chat',
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: message.content, annotations: [] }],
    })
  if (Array.isArray(message.tool_calls))
    for (const [index, call] of message.tool_calls.entries()) {
      if (!isObject(call) || !isObject(call.function)) continue
      output.push(
        itemOfChatCall(kinds, {
          id: `fc_chat_${index}`,
          callId: String(call.id ?? `call_${index}`),
          name: String(call.function.name),
          arguments: String(call.function.arguments ?? ''),
        }),
      )
    }
  const finish = statusOfFinish(isObject(choice) ? choice.finish_reason : undefined)
  return {
    id: body.id,
    object: 'response',
    status: finish.status,
    incomplete_details: finish.reason ? { reason: finish.reason } : null,
    output,
    usage: usageOfChat(body.usage),
  }
}
