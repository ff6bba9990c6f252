/**
 * Item conversions with one owner each: output item → continuation input item, the model-visibility
 * filter applied just before an upstream request, and the pending-call check of a continuation.
 */
import { type GatewayError, invalidRequest } from '../wire/errors.js'
import type { IdPrefix } from '../wire/ids.js'
import type { JsonObject } from '../wire/json.js'

/** The id prefix the gateway mints for an output item of this type. */
export function prefixFor(type: string): IdPrefix {
  switch (type) {
    case 'message':
      return 'msg'
    case 'function_call':
      return 'fc'
    case 'custom_tool_call':
      return 'ctc'
    case 'reasoning':
      return 'rs'
    case 'mcp_call':
      return 'mcp'
    case 'mcp_list_tools':
      return 'mcpl'
    case 'web_search_call':
      return 'ws'
    case 'web_fetch_call':
      return 'wf'
    case 'compaction':
      return 'cmp'
    default:
      return 'item'
  }
}

/**
 * An output item as the next round's input: ids and statuses are the gateway's, not the model's, so
 * they are dropped; public projections of gateway tools (mcp_call, web_search_call, web_fetch_call) are omitted because
 * their model-facing function call and output are kept separately.
 */
export function toInputItem(item: JsonObject): JsonObject | undefined {
  switch (item.type) {
    case 'mcp_call':
    case 'mcp_list_tools':
    case 'web_search_call':
    case 'web_fetch_call':
      return undefined
    case 'message': {
      const { id: _id, status: _status, ...rest } = item
      return rest
    }
    case 'function_call':
    case 'custom_tool_call':
    case 'local_shell_call':
    case 'computer_call':
    case 'tool_search_call':
    case 'tool_search_output':
    case 'shell_call':
    case 'apply_patch_call': {
      const { id: _id, status: _status, ...rest } = item
      return rest
    }
    case 'reasoning': {
      const { id: _id, status: _status, ...rest } = item
      return rest
    }
    default:
      return item
  }
}

const COMPACTION_PREFIX = 'zgw1.'

/** A compaction item's opaque content (the gateway owns its format: a versioned, base64url summary). */
export function encodeCompaction(summary: string): string {
  return `${COMPACTION_PREFIX}${Buffer.from(summary, 'utf8').toString('base64url')}`
}

/** The summary inside a compaction item this gateway produced; undefined for a foreign one. */
export function decodeCompaction(content: unknown): string | undefined {
  if (typeof content !== 'string' || !content.startsWith(COMPACTION_PREFIX)) return undefined
  return Buffer.from(content.slice(COMPACTION_PREFIX.length), 'base64url').toString('utf8')
}

/**
 * The items the model sees: the latest compaction supersedes what came before it (only user messages
 * before it stay, as the compact endpoint returns them) and becomes an assistant summary; gateway-only
 * records are removed. A compaction item from elsewhere cannot be read and is refused.
 */
export function modelInput(items: JsonObject[]): JsonObject[] | GatewayError {
  let last = -1
  for (const [index, item] of items.entries()) if (item.type === 'compaction') last = index
  const out: JsonObject[] = []
  for (const [index, item] of items.entries()) {
    if (
      item.type === 'mcp_list_tools' ||
      item.type === 'mcp_call' ||
      item.type === 'web_search_call' ||
      item.type === 'web_fetch_call'
    )
      continue
    if (index < last && !(item.type === 'message' && item.role === 'user')) continue
    if (item.type === 'compaction') {
      if (index !== last) continue
      const summary = decodeCompaction(item.encrypted_content)
      if (summary === undefined)
        return invalidRequest(
          'A compaction item was not produced by this gateway (its content cannot be read here); send the uncompacted history instead.',
          'input',
        )
      out.push({
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: `Summary of the earlier conversation:\n${summary}` }],
      })
      continue
    }
    out.push(item)
  }
  return out
}

/**
 * The call/output pairs a continuation must keep: a function call is answered by a
 * `function_call_output`, a custom tool call by a `custom_tool_call_output`. Other client calls
 * (local shell, computer, tool search) pass unchecked: their outputs do not all carry a `call_id`.
 */
const ANSWERED_BY: Readonly<Record<string, string>> = {
  function_call: 'function_call_output',
  custom_tool_call: 'custom_tool_call_output',
}
const OUTPUTS = new Set(Object.values(ANSWERED_BY))

/**
 * A continuation's calls and outputs must pair up: every output resolves exactly one pending call, and
 * no call is left without its output (the client must answer every call it was given).
 */
export function checkPendingCalls(history: JsonObject[], input: JsonObject[]): GatewayError | undefined {
  const pending = new Map<string, string>()
  const track = (item: JsonObject): void => {
    const answer = ANSWERED_BY[String(item.type)]
    if (answer !== undefined && typeof item.call_id === 'string') pending.set(item.call_id, answer)
  }
  for (const item of history) {
    track(item)
    if (OUTPUTS.has(String(item.type)) && typeof item.call_id === 'string') pending.delete(item.call_id)
  }
  for (const [index, item] of input.entries()) {
    track(item)
    if (!OUTPUTS.has(String(item.type))) continue
    const callId = String(item.call_id)
    if (pending.get(callId) !== item.type)
      return invalidRequest(
        `input[${index}] answers call_id '${callId}', which is not a pending ${item.type === 'function_call_output' ? 'function call' : 'custom tool call'} of this conversation.`,
        `input[${index}].call_id`,
      )
    pending.delete(callId)
  }
  const [missing] = pending.entries()
  if (missing !== undefined)
    return invalidRequest(
      `No tool output found for ${missing[1] === 'function_call_output' ? 'function' : 'custom tool'} call ${missing[0]}: send a ${missing[1]} with that call_id.`,
      'input',
    )
  return undefined
}
