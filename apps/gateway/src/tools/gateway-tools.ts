/** Gateway-owned tools: declared by the request, executed in the gateway inside the response's loop. */
import type { JsonObject } from '../wire/json.js'

/** A model's call of a gateway-owned tool (the canonical function call). */
export interface GatewayToolCall {
  callId: string
  name: string
  arguments: string
}

/** What running a call produced: the output fed back to the model and the public item. */
export interface GatewayToolResult {
  output: string
  /** The public item (e.g. `mcp_call`) in its final state. */
  publicItem: JsonObject
  failed: boolean
}

/** The gateway tools of one request. */
export interface GatewayToolset {
  /** Function declarations the model sees for them. */
  readonly upstreamTools: JsonObject[]
  /** Items to put first in the public output (e.g. `mcp_list_tools` of a first discovery). */
  readonly listItems: JsonObject[]
  /** True when a model-visible function name is gateway-owned. */
  owns(name: string): boolean
  /** The public item type a call of this function becomes (`mcp_call`, `web_search_call`). */
  itemType(name: string): string
  /** The public item shown while the call runs (status `in_progress`). */
  startItem(call: GatewayToolCall, id: string): JsonObject
  /** The SSE event prefix of the public lifecycle (`response.mcp_call`). */
  eventPrefix(name: string): string
  /** Lifecycle events sent after `in_progress` while the call runs (`searching` for a web search). */
  runningEvents(name: string): readonly string[]
  /** Runs one call; failures come back as a failed result the model can read, never a throw. */
  execute(call: GatewayToolCall, id: string, signal: AbortSignal): Promise<GatewayToolResult>
  close(): Promise<void>
}

/** One toolset over several: each call goes to the set that owns its function name. */
export function combineToolsets(sets: readonly GatewayToolset[]): GatewayToolset | undefined {
  if (sets.length <= 1) return sets[0]
  const owner = (name: string): GatewayToolset => {
    const found = sets.find((set) => set.owns(name))
    if (!found) throw new Error(`no gateway toolset owns ${name}`)
    return found
  }
  return {
    upstreamTools: sets.flatMap((set) => set.upstreamTools),
    listItems: sets.flatMap((set) => set.listItems),
    owns: (name) => sets.some((set) => set.owns(name)),
    itemType: (name) => owner(name).itemType(name),
    startItem: (call, id) => owner(call.name).startItem(call, id),
    eventPrefix: (name) => owner(name).eventPrefix(name),
    runningEvents: (name) => owner(name).runningEvents(name),
    execute: (call, id, signal) => owner(call.name).execute(call, id, signal),
    close: async () => {
      await Promise.all(sets.map((set) => set.close()))
    },
  }
}
