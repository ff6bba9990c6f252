/**
 * The `POST /v1/responses` request: the fields the gateway reads are typed and checked; every other
 * field is kept as sent and forwarded upstream untouched (provider extensions survive the gateway).
 */
import { z } from 'zod'
import { type GatewayError, invalidRequest } from './errors.js'
import { isObject, type JsonObject } from './json.js'

const item = z.looseObject({ type: z.string().optional() })

const tool = z.looseObject({ type: z.string() })

const conversationRef = z.union([z.string().min(1), z.looseObject({ id: z.string().min(1) })])

const createResponse = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(item)]).optional(),
  instructions: z.string().nullable().optional(),
  stream: z.boolean().nullable().optional(),
  store: z.boolean().nullable().optional(),
  previous_response_id: z.string().min(1).nullable().optional(),
  conversation: conversationRef.nullable().optional(),
  tools: z.array(tool).nullable().optional(),
  max_tool_calls: z.number().int().min(0).nullable().optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
  background: z.boolean().nullable().optional(),
})

/** A validated create-response request; `raw` keeps every field the client sent. */
export interface CreateResponseRequest {
  raw: JsonObject
  model: string
  /** The new input as items (a string input becomes one user message). */
  input: JsonObject[]
  instructions: string | null
  stream: boolean
  /** OpenAI's default: stored unless the client says `store: false`. */
  store: boolean
  previousResponseId: string | null
  conversationId: string | null
  tools: JsonObject[]
  maxToolCalls: number | null
  metadata: Record<string, string>
  /** Run detached from this request: retrievable, cancellable, its events replayable (OpenAI's background mode). */
  background: boolean
}

/** A validated body, or the 400 that names what is wrong. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: GatewayError }

function firstIssue(error: z.ZodError): GatewayError {
  const issue = error.issues[0]
  const param = issue?.path.join('.') || null
  return invalidRequest(
    `Invalid request body${param ? ` at '${param}'` : ''}: ${issue?.message ?? 'malformed'}.`,
    param,
  )
}

/** A message written without `type` (`{role, content}`) is a message item, as OpenAI reads it. */
export function normalizeInputItem(value: JsonObject): JsonObject {
  if (value.type === undefined && typeof value.role === 'string') return { type: 'message', ...value }
  return value
}

/** The input as items: a string is one user message. */
export function inputItems(input: string | JsonObject[] | undefined): JsonObject[] {
  if (input === undefined) return []
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }]
  return input.map(normalizeInputItem)
}

/** Checks the items the gateway has to understand; others pass through as sent. */
export function checkItems(items: JsonObject[], param: string): GatewayError | undefined {
  for (const [index, entry] of items.entries()) {
    const at = `${param}[${index}]`
    if (typeof entry.type !== 'string')
      return invalidRequest(
        `Each input item needs a 'type' (or a 'role' for a message); ${at} has neither.`,
        at,
      )
    if (entry.type === 'function_call_output' || entry.type === 'custom_tool_call_output') {
      if (typeof entry.call_id !== 'string' || entry.call_id === '')
        return invalidRequest(`${at} (${entry.type}) needs a non-empty 'call_id'.`, `${at}.call_id`)
      if (entry.output === undefined)
        return invalidRequest(`${at} (${entry.type}) needs an 'output'.`, `${at}.output`)
    }
    if (
      (entry.type === 'function_call' || entry.type === 'custom_tool_call') &&
      (typeof entry.call_id !== 'string' || typeof entry.name !== 'string')
    )
      return invalidRequest(`${at} (${entry.type}) needs 'call_id' and 'name'.`, at)
    if (entry.type === 'message' && typeof entry.role !== 'string')
      return invalidRequest(`${at} (message) needs a 'role'.`, `${at}.role`)
  }
  return undefined
}

/** Validates a create-response body. */
export function parseCreateResponse(body: unknown): Parsed<CreateResponseRequest> {
  if (!isObject(body)) return { ok: false, error: invalidRequest('The request body must be a JSON object.') }
  const parsed = createResponse.safeParse(body)
  if (!parsed.success) return { ok: false, error: firstIssue(parsed.error) }
  const value = parsed.data
  const input = inputItems(value.input as string | JsonObject[] | undefined)
  const bad = checkItems(input, 'input')
  if (bad) return { ok: false, error: bad }
  const conversation = value.conversation
  const conversationId =
    conversation === undefined || conversation === null
      ? null
      : typeof conversation === 'string'
        ? conversation
        : conversation.id
  const previousResponseId = value.previous_response_id ?? null
  // A background response is retrieved later, so it must be stored (OpenAI refuses the pair too).
  if (value.background === true && value.store === false)
    return {
      ok: false,
      error: invalidRequest(
        "'background: true' needs the response stored: drop 'store: false' (a background response is fetched later by its id).",
        'background',
      ),
    }
  if (conversationId !== null && previousResponseId !== null)
    return {
      ok: false,
      error: invalidRequest(
        "Use either 'previous_response_id' or 'conversation', not both: a conversation already carries its history.",
        'previous_response_id',
      ),
    }
  return {
    ok: true,
    value: {
      raw: body,
      model: value.model,
      input,
      instructions: value.instructions ?? null,
      stream: value.stream === true,
      store: value.store !== false,
      previousResponseId,
      conversationId,
      tools: (value.tools ?? []) as JsonObject[],
      maxToolCalls: value.max_tool_calls ?? null,
      metadata: value.metadata ?? {},
      background: value.background === true,
    },
  }
}

const compactRequest = z.looseObject({
  model: z.string().min(1),
  input: z
    .union([z.string(), z.array(item)])
    .nullable()
    .optional(),
  instructions: z.string().nullable().optional(),
  previous_response_id: z.string().min(1).nullable().optional(),
})

/** A validated `POST /v1/responses/compact` request. */
export interface CompactRequest {
  raw: JsonObject
  model: string
  input: JsonObject[]
  instructions: string | null
  previousResponseId: string | null
}

/** Validates a compact body. */
export function parseCompactRequest(body: unknown): Parsed<CompactRequest> {
  if (!isObject(body)) return { ok: false, error: invalidRequest('The request body must be a JSON object.') }
  const parsed = compactRequest.safeParse(body)
  if (!parsed.success) return { ok: false, error: firstIssue(parsed.error) }
  const input = inputItems((parsed.data.input ?? undefined) as string | JsonObject[] | undefined)
  const bad = checkItems(input, 'input')
  if (bad) return { ok: false, error: bad }
  const previousResponseId = parsed.data.previous_response_id ?? null
  if (input.length === 0 && previousResponseId === null)
    return {
      ok: false,
      error: invalidRequest("Give 'input' or 'previous_response_id': there is nothing to compact.", 'input'),
    }
  return {
    ok: true,
    value: {
      raw: body,
      model: parsed.data.model,
      input,
      instructions: parsed.data.instructions ?? null,
      previousResponseId,
    },
  }
}

const createConversation = z.looseObject({
  items: z.array(item).nullable().optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
})

/** Validates a create-conversation body (an empty body is allowed). */
export function parseCreateConversation(
  body: unknown,
): Parsed<{ items: JsonObject[]; metadata: Record<string, string> }> {
  const parsed = createConversation.safeParse(body ?? {})
  if (!parsed.success) return { ok: false, error: firstIssue(parsed.error) }
  const items = ((parsed.data.items ?? []) as JsonObject[]).map(normalizeInputItem)
  const bad = checkItems(items, 'items')
  if (bad) return { ok: false, error: bad }
  return { ok: true, value: { items, metadata: parsed.data.metadata ?? {} } }
}

const updateConversation = z.looseObject({ metadata: z.record(z.string(), z.string()) })

/** Validates an update-conversation body. */
export function parseUpdateConversation(body: unknown): Parsed<{ metadata: Record<string, string> }> {
  const parsed = updateConversation.safeParse(body)
  if (!parsed.success) return { ok: false, error: firstIssue(parsed.error) }
  return { ok: true, value: { metadata: parsed.data.metadata } }
}

const addItems = z.looseObject({ items: z.array(item).min(1) })

/** Validates an add-items body. */
export function parseAddItems(body: unknown): Parsed<JsonObject[]> {
  const parsed = addItems.safeParse(body)
  if (!parsed.success) return { ok: false, error: firstIssue(parsed.error) }
  const items = (parsed.data.items as JsonObject[]).map(normalizeInputItem)
  const bad = checkItems(items, 'items')
  if (bad) return { ok: false, error: bad }
  return { ok: true, value: items }
}
