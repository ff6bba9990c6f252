/**
 * A Messages request as an upstream Responses request (the Upstream class turns that into Chat for a
 * Chat-only server): `system` → `instructions`, user blocks → input messages, `tool_result` →
 * `function_call_output`, assistant `tool_use`/`server_tool_use`/`mcp_tool_use` → `function_call`
 * and their result blocks → `function_call_output`, `max_tokens` → `max_output_tokens`,
 * `tool_choice` → Responses' selector. A block the gateway cannot translate is a 400, never dropped —
 * except earlier turns' `thinking` without a signature and `redacted_thinking`, which carry nothing the
 * upstream could read (Anthropic's API drops earlier turns' thinking as well).
 */

import { responsesToolChoice } from '@z-engine/engine/models'
import { type GatewayError, invalidRequest } from '../wire/errors.js'
import { isObject, type JsonObject } from '../wire/json.js'
import type { MessagesRequest, MessagesToolChoice } from './request.js'
import { resultBlockText } from './result-text.js'

/** Messages fields the gateway answers itself or translates; the rest is forwarded as it came. */
const TRANSLATED = new Set([
  'model',
  'messages',
  'system',
  'max_tokens',
  'stream',
  'tools',
  'tool_choice',
  'stop_sequences',
  'metadata',
  'thinking',
  'mcp_servers',
  'service_tier',
])

function imageOf(block: JsonObject, at: string): JsonObject | GatewayError {
  const source = isObject(block.source) ? block.source : {}
  if (source.type === 'base64' && typeof source.data === 'string' && typeof source.media_type === 'string')
    return {
      type: 'input_image',
      image_url: `data:${source.media_type};base64,${source.data}`,
      detail: 'auto',
    }
  if (source.type === 'url' && typeof source.url === 'string')
    return { type: 'input_image', image_url: source.url, detail: 'auto' }
  return invalidRequest(`${at}: an image needs a base64 or url source.`, at)
}

function toolResultOutput(block: JsonObject, at: string): string | GatewayError {
  const content = block.content
  let text: string
  if (content === undefined || content === null) text = ''
  else if (typeof content === 'string') text = content
  else if (Array.isArray(content)) {
    const parts: string[] = []
    for (const [index, part] of content.entries()) {
      if (!isObject(part) || part.type !== 'text' || typeof part.text !== 'string')
        return invalidRequest(
          `${at}.content[${index}]: this gateway passes only text inside a tool_result.`,
          `${at}.content[${index}]`,
        )
      parts.push(part.text)
    }
    text = parts.join('\n')
  } else return invalidRequest(`${at}.content must be a string or text blocks.`, `${at}.content`)
  return block.is_error === true ? `Error: ${text}` : text
}

/** The conversation as Responses input items. */
export function toInputItems(request: MessagesRequest): JsonObject[] | GatewayError {
  const items: JsonObject[] = []
  for (const [m, message] of request.messages.entries()) {
    const user = message.role === 'user'
    let parts: JsonObject[] = []
    const flush = (): void => {
      if (parts.length === 0) return
      items.push(
        user
          ? { type: 'message', role: 'user', content: parts }
          : { type: 'message', role: 'assistant', content: parts },
      )
      parts = []
    }
    for (const [b, block] of message.content.entries()) {
      const at = `messages[${m}].content[${b}]`
      const type = String(block.type)
      if (user) {
        switch (type) {
          case 'text':
            parts.push({ type: 'input_text', text: String(block.text ?? '') })
            continue
          case 'image': {
            const image = imageOf(block, at)
            if ('status' in image) return image as GatewayError
            parts.push(image)
            continue
          }
          case 'document': {
            const source = isObject(block.source) ? block.source : {}
            if (source.type !== 'text' || typeof source.data !== 'string')
              return invalidRequest(`${at}: this gateway passes only text documents.`, at)
            parts.push({ type: 'input_text', text: source.data })
            continue
          }
          case 'tool_result': {
            const output = toolResultOutput(block, at)
            if (typeof output !== 'string') return output
            flush()
            items.push({ type: 'function_call_output', call_id: String(block.tool_use_id ?? ''), output })
            continue
          }
          default:
            return invalidRequest(`${at}: a user message cannot carry a '${type}' block here.`, at)
        }
      }
      switch (type) {
        case 'text':
          parts.push({ type: 'output_text', text: String(block.text ?? ''), annotations: [] })
          continue
        case 'thinking':
          flush()
          if (typeof block.signature === 'string' && block.signature !== '')
            items.push({
              type: 'reasoning',
              summary: [{ type: 'summary_text', text: String(block.thinking ?? '') }],
              encrypted_content: block.signature,
            })
          continue
        case 'redacted_thinking':
          continue
        case 'tool_use':
        case 'server_tool_use':
        case 'mcp_tool_use':
          flush()
          items.push({
            type: 'function_call',
            call_id: String(block.id ?? ''),
            name: String(block.name ?? ''),
            arguments: JSON.stringify(block.input ?? {}),
          })
          continue
        case 'web_search_tool_result':
        case 'web_fetch_tool_result':
        case 'mcp_tool_result':
          flush()
          items.push({
            type: 'function_call_output',
            call_id: String(block.tool_use_id ?? ''),
            output: resultBlockText(block),
          })
          continue
        default:
          return invalidRequest(`${at}: an assistant message cannot carry a '${type}' block here.`, at)
      }
    }
    flush()
  }
  return items
}

/** The reasoning effort for a thinking budget (Responses has no token budget for reasoning). */
function effortFor(thinking: unknown): JsonObject | undefined {
  if (!isObject(thinking) || thinking.type !== 'enabled') return undefined
  const budget = Number(thinking.budget_tokens ?? 0)
  return { effort: budget >= 16_384 ? 'high' : budget >= 4096 ? 'medium' : 'low', summary: 'auto' }
}

/** The upstream body of one round. */
export function upstreamBody(
  request: MessagesRequest,
  input: JsonObject[],
  tools: JsonObject[],
  toolChoice: MessagesToolChoice,
  stream: boolean,
): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(request.raw)) if (!TRANSLATED.has(key)) body[key] = value
  body.model = request.model
  if (request.system !== null) body.instructions = request.system
  body.input = input
  body.max_output_tokens = request.maxTokens
  const stop = request.raw.stop_sequences
  if (Array.isArray(stop) && stop.length > 0) body.stop = stop
  const metadata = request.raw.metadata
  if (isObject(metadata) && typeof metadata.user_id === 'string') body.user = metadata.user_id
  const reasoning = effortFor(request.raw.thinking)
  if (reasoning) body.reasoning = reasoning
  if (tools.length > 0) {
    body.tools = tools
    body.tool_choice = responsesToolChoice(toolChoice)
    body.parallel_tool_calls = !toolChoice.disableParallel
  }
  body.store = false
  body.stream = stream
  return body
}
