import type { JsonObject } from '../wire/json.js'

/** A model's call of a tool, as the round produced it. */
export interface MessagesCall {
  id: string
  name: string
  arguments: string
}

/** A gateway call's result: what the model reads next round and the block the client sees. */
export interface MessagesCallResult {
  output: string
  block: JsonObject
  isError: boolean
}

/** Where URLs the conversation has seen are looked up (Anthropic's rule for web_fetch). */
export interface Provenance {
  has(url: string): boolean
  add(text: string): void
}

/** The gateway tools of one request. */
export interface MessagesTools {
  /** Every function the model sees: client tools first, then gateway tools. */
  readonly upstreamTools: JsonObject[]
  owns(name: string): boolean
  /** The block announcing a gateway call (`server_tool_use` or `mcp_tool_use`). */
  useBlock(call: MessagesCall): JsonObject
  /** Admits the calls in model order (budgets), then runs the admitted ones concurrently. */
  execute(calls: MessagesCall[], provenance: Provenance, signal: AbortSignal): Promise<MessagesCallResult[]>
  /** `usage.server_tool_use` counters so far. */
  serverToolUse(): JsonObject | null
  close(): Promise<void>
}
