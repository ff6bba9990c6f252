/** Upstream Responses output as Anthropic content blocks, stop reasons and usage. */
import { isObject, type JsonObject } from '../wire/json.js'

function texts(list: unknown, type: string): string[] {
  if (!Array.isArray(list)) return []
  return list
    .filter((part): part is JsonObject => isObject(part) && part.type === type)
    .map((part) => String(part.text ?? ''))
}

/** A reasoning item's text (its summary, else its reasoning content). */
export function thinkingText(item: JsonObject): string {
  const summary = texts(item.summary, 'summary_text')
  return (summary.length > 0 ? summary : texts(item.content, 'reasoning_text')).join('\n\n')
}

/** The arguments of a function call as a tool_use `input` (an object; `{}` when they are not one). */
export function toolInput(argumentsText: unknown): JsonObject {
  try {
    const parsed: unknown = JSON.parse(
      typeof argumentsText === 'string' && argumentsText.trim() !== '' ? argumentsText : '{}',
    )
    return isObject(parsed) ? parsed : {}
  } catch {
    return {}
  }
}

/** One upstream item's blocks (gateway-owned calls are the caller's, so `function_call` here is a client tool). */
export function blocksOf(item: JsonObject): JsonObject[] {
  switch (item.type) {
    case 'reasoning':
      return [
        {
          type: 'thinking',
          thinking: thinkingText(item),
          signature: typeof item.encrypted_content === 'string' ? item.encrypted_content : '',
        },
      ]
    case 'message': {
      const content = Array.isArray(item.content) ? item.content.filter(isObject) : []
      return content.flatMap((part) =>
        part.type === 'output_text'
          ? [{ type: 'text', text: String(part.text ?? '') }]
          : part.type === 'refusal'
            ? [{ type: 'text', text: String(part.refusal ?? '') }]
            : [],
      )
    }
    case 'function_call':
      return [
        {
          type: 'tool_use',
          id: String(item.call_id ?? item.id ?? ''),
          name: String(item.name ?? ''),
          input: toolInput(item.arguments),
        },
      ]
    default:
      return []
  }
}

/** True when an item refused (a `refusal` content part). */
export function refused(item: JsonObject): boolean {
  return (
    item.type === 'message' &&
    Array.isArray(item.content) &&
    item.content.some((part) => isObject(part) && part.type === 'refusal')
  )
}

/** Anthropic usage counters summed over rounds (`input_tokens` excludes cache reads, as Anthropic counts). */
export class UsageTotals {
  input = 0
  output = 0
  cacheRead = 0
  reported = false

  /** Adds one round's Responses usage. */
  add(usage: JsonObject | null): void {
    if (!usage) return
    this.reported = true
    const details = isObject(usage.input_tokens_details) ? usage.input_tokens_details : {}
    const cached = Number(details.cached_tokens ?? 0) || 0
    this.input += Math.max(0, (Number(usage.input_tokens ?? 0) || 0) - cached)
    this.cacheRead += cached
    this.output += Number(usage.output_tokens ?? 0) || 0
  }

  /** The `usage` object. */
  toJson(serverToolUse: JsonObject | null): JsonObject {
    return {
      input_tokens: this.input,
      output_tokens: this.output,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: this.cacheRead,
      ...(serverToolUse ? { server_tool_use: serverToolUse } : {}),
    }
  }
}
