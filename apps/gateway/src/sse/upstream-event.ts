/**
 * One upstream Responses stream event, normalized: vLLM's and older spellings are mapped onto
 * OpenAI's names so the accumulator knows one vocabulary.
 */
import { isObject, type JsonObject } from '../wire/json.js'

const ALIASES: Readonly<Record<string, string>> = {
  'response.done': 'response.completed',
  'response.reasoning.delta': 'response.reasoning_text.delta',
  'response.reasoning.done': 'response.reasoning_text.done',
}

/** A parsed event: its canonical `type` and the payload (with `type` rewritten to it). */
export interface UpstreamEvent {
  type: string
  payload: JsonObject
}

/** Parses one SSE data payload; undefined when it is not a JSON object with a string `type`. */
export function parseUpstreamEvent(data: string, sseEvent: string | null): UpstreamEvent | undefined {
  let value: unknown
  try {
    value = JSON.parse(data)
  } catch {
    return undefined
  }
  if (!isObject(value)) return undefined
  const named = typeof value.type === 'string' ? value.type : sseEvent
  if (typeof named !== 'string' || named === '') return undefined
  const type = ALIASES[named] ?? named
  // The payload was just parsed and belongs to no one else: rename in place rather than copy.
  value.type = type
  return { type, payload: value }
}
