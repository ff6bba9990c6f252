import type { ResponseSession } from '../executor/rehydrate.js'
import { isObject, type JsonObject, jsonBytes } from '../wire/json.js'
import type { CreateResponseRequest } from '../wire/request.js'

/** Session ceilings (the spec's: 64 requests, 12 MiB of request data). */
export const WS_LIMITS = {
  maxQueuedRequests: 64,
  maxQueuedBytes: 12 * 1024 * 1024,
  /** Responses whose windows a session retains. */
  maxRetainedResponses: 64,
  /** Bytes of retained windows per session. */
  maxRetainedBytes: 16 * 1024 * 1024,
} as const

/** What a connection keeps of one response: its window, its request, the client calls it waits on. */
export interface Retained {
  window: JsonObject[]
  bytes: number
  request: CreateResponseRequest
  pendingCalls: Set<string>
}

/** Retained response state of one connection, oldest evicted first past the bounds. */
export class RetainedResponses implements ResponseSession {
  readonly #entries = new Map<string, Retained>()
  #bytes = 0

  window(id: string): JsonObject[] | undefined {
    return this.#entries.get(id)?.window
  }

  get(id: string): Retained | undefined {
    return this.#entries.get(id)
  }

  retain(id: string, window: JsonObject[], request: CreateResponseRequest, response: JsonObject): void {
    const answered = new Set(
      window.filter((item) => item.type === 'function_call_output').map((item) => String(item.call_id)),
    )
    const output = Array.isArray(response.output) ? response.output.filter(isObject) : []
    const pendingCalls = new Set(
      output
        .filter((item) => item.type === 'function_call' && !answered.has(String(item.call_id)))
        .map((item) => String(item.call_id)),
    )
    const bytes = jsonBytes(window)
    this.#entries.set(id, { window, bytes, request, pendingCalls })
    this.#bytes += bytes
    for (const [key, entry] of this.#entries) {
      if (this.#entries.size <= WS_LIMITS.maxRetainedResponses && this.#bytes <= WS_LIMITS.maxRetainedBytes)
        break
      if (key === id) break
      this.#entries.delete(key)
      this.#bytes -= entry.bytes
    }
  }

  /** Marks a response's calls answered (its continuation was admitted). */
  settle(id: string): void {
    this.#entries.get(id)?.pendingCalls.clear()
  }

  get size(): number {
    return this.#entries.size
  }
}
