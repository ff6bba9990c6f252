/**
 * The Anthropic Messages request, checked: the typed fields the gateway reads (model, max_tokens,
 * stream, tools, tool_choice) beside the raw body, whose unknown fields are forwarded. Shape only:
 * which tools run where is decided in messages/tools.ts.
 */
import { type GatewayError, invalidRequest } from '../wire/errors.js'
import { isObject, type JsonObject } from '../wire/json.js'

/** `tool_choice`, exhaustively. `disable_parallel_tool_use` rides along. */
export type MessagesToolChoice =
  | { type: 'auto'; disableParallel: boolean }
  | { type: 'any'; disableParallel: boolean }
  | { type: 'tool'; name: string; disableParallel: boolean }
  | { type: 'none'; disableParallel: boolean }

/** A checked Messages request. */
export interface MessagesRequest {
  raw: JsonObject
  model: string
  maxTokens: number
  stream: boolean
  /** The system prompt's text (string or text blocks joined), or null. */
  system: string | null
  messages: Array<{ role: 'user' | 'assistant'; content: JsonObject[] }>
  tools: JsonObject[]
  toolChoice: MessagesToolChoice
  /** Declared MCP connector servers (`mcp_servers`). */
  mcpServers: JsonObject[]
}

/** A parse result: the value or the 400 to answer. */
export type MessagesParsed<T> = { ok: true; value: T } | { ok: false; error: GatewayError }

function fail<T>(message: string, param: string): MessagesParsed<T> {
  return { ok: false, error: invalidRequest(message, param) }
}

function blocksOf(content: unknown, at: string): JsonObject[] | string {
  if (typeof content === 'string') return [{ type: 'text', text: content }]
  if (!Array.isArray(content)) return `${at}.content must be a string or a list of content blocks.`
  for (const [index, block] of content.entries())
    if (!isObject(block) || typeof block.type !== 'string')
      return `${at}.content[${index}] must be a content block with a 'type'.`
  return content as JsonObject[]
}

function parseToolChoice(value: unknown): MessagesToolChoice | string {
  if (value === undefined || value === null) return { type: 'auto', disableParallel: false }
  if (!isObject(value)) return 'tool_choice must be an object such as {"type": "auto"}.'
  const disableParallel = value.disable_parallel_tool_use === true
  switch (value.type) {
    case 'auto':
    case 'any':
    case 'none':
      return { type: value.type, disableParallel }
    case 'tool':
      if (typeof value.name !== 'string' || value.name === '')
        return "tool_choice of type 'tool' needs the tool's 'name'."
      return { type: 'tool', name: value.name, disableParallel }
    default:
      return `tool_choice.type must be 'auto', 'any', 'tool' or 'none' (got ${JSON.stringify(value.type)}).`
  }
}

/** Checks a `POST /v1/messages` (or count_tokens) body. `needsMaxTokens` is false for count_tokens. */
export function parseMessagesRequest(body: unknown, needsMaxTokens = true): MessagesParsed<MessagesRequest> {
  if (!isObject(body)) return fail('The request body must be a JSON object.', 'body')
  if (typeof body.model !== 'string' || body.model === '') return fail("'model' is required.", 'model')
  const maxTokens = body.max_tokens
  if (needsMaxTokens && !(typeof maxTokens === 'number' && Number.isInteger(maxTokens) && maxTokens > 0))
    return fail("'max_tokens' must be a positive integer.", 'max_tokens')
  if (body.stream !== undefined && typeof body.stream !== 'boolean')
    return fail("'stream' must be true or false.", 'stream')
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return fail("'messages' must be a non-empty list.", 'messages')
  const messages: MessagesRequest['messages'] = []
  for (const [index, message] of body.messages.entries()) {
    const at = `messages[${index}]`
    if (!isObject(message) || (message.role !== 'user' && message.role !== 'assistant'))
      return fail(`${at}.role must be 'user' or 'assistant'.`, `${at}.role`)
    const content = blocksOf(message.content, at)
    if (typeof content === 'string') return fail(content, `${at}.content`)
    messages.push({ role: message.role, content })
  }
  let system: string | null = null
  if (typeof body.system === 'string') system = body.system
  else if (Array.isArray(body.system)) {
    const texts: string[] = []
    for (const [index, block] of body.system.entries()) {
      if (!isObject(block) || block.type !== 'text' || typeof block.text !== 'string')
        return fail(`system[${index}] must be a text block.`, `system[${index}]`)
      texts.push(block.text)
    }
    system = texts.join('\n\n')
  } else if (body.system !== undefined && body.system !== null)
    return fail("'system' must be a string or a list of text blocks.", 'system')
  if (body.tools !== undefined && !Array.isArray(body.tools)) return fail("'tools' must be a list.", 'tools')
  const tools = (body.tools ?? []) as unknown[]
  for (const [index, tool] of tools.entries())
    if (!isObject(tool) || typeof tool.name !== 'string' || tool.name === '')
      return fail(`tools[${index}] needs a 'name'.`, `tools[${index}].name`)
  const toolChoice = parseToolChoice(body.tool_choice)
  if (typeof toolChoice === 'string') return fail(toolChoice, 'tool_choice')
  if (body.mcp_servers !== undefined && !Array.isArray(body.mcp_servers))
    return fail("'mcp_servers' must be a list.", 'mcp_servers')
  const mcpServers = (body.mcp_servers ?? []) as unknown[]
  for (const [index, server] of mcpServers.entries())
    if (!isObject(server) || typeof server.url !== 'string' || typeof server.name !== 'string')
      return fail(`mcp_servers[${index}] needs 'url' and 'name'.`, `mcp_servers[${index}]`)
  return {
    ok: true,
    value: {
      raw: body,
      model: body.model,
      maxTokens: typeof maxTokens === 'number' ? maxTokens : 0,
      stream: body.stream === true,
      system,
      messages,
      tools: tools as JsonObject[],
      toolChoice,
      mcpServers: mcpServers as JsonObject[],
    },
  }
}
