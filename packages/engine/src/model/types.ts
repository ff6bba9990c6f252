/**
 * The model-client contract the engine core relies on: a provider-neutral request, the stream of
 * events an adapter produces for it, and the typed errors it can end with. Adapters (Anthropic
 * Messages, OpenAI Chat Completions, OpenAI Responses, Gemini) translate to and from their wire formats;
 * nothing outside `model/` sees a provider shape.
 */
import type { ContentBlock, Message, ToolChoice, ToolSpec, Usage } from '@z-engine/protocol'

/**
 * One section of the system prompt. The request builder orders sections stable-first; the adapter
 * places the system cache breakpoint on the LAST section with `cacheable: true`. A per-request note
 * (e.g. a worktree agent's location) goes after it with `cacheable: false`, outside the cache.
 */
export interface SystemSection {
  text: string
  cacheable: boolean
}

/** How hard the model should think. `budgetTokens` is used where the provider takes a budget (Anthropic). */
export interface ReasoningOptions {
  effort: 'minimal' | 'low' | 'medium' | 'high'
  /** Anthropic thinking budget; when absent it is derived from `effort` and kept below maxOutputTokens. */
  budgetTokens?: number
}

/** A provider-neutral request for one round. */
export interface ModelRequest {
  /** The provider's model id (without the `<provider>/` prefix of a model ref). */
  model: string
  system: SystemSection[]
  tools: ToolSpec[]
  /**
   * The working transcript. Cache breakpoints go on the last two user messages (tool-result rounds
   * included); the adapter places them, so callers pass plain messages.
   */
  messages: Message[]
  maxOutputTokens: number
  /** Absent: no extended thinking / reasoning parameters are sent. */
  reasoning?: ReasoningOptions
  /** Absent means `auto`. */
  toolChoice?: ToolChoice
  /** Opaque request metadata; `userId` is forwarded where the provider has a field for it. */
  metadata?: { userId?: string }
}

/** Why the model stopped, normalized across providers. */
export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'other'

/** The kinds of model error; each says whether it is worth retrying and what the user can do. */
export type ModelErrorKind =
  | 'context_overflow'
  | 'rate_limited'
  | 'overloaded'
  | 'authentication'
  | 'permission'
  | 'invalid_request'
  | 'not_found'
  | 'network'
  | 'server'
  | 'aborted'

/**
 * A typed model error. `message` is user-facing and says what to do; `providerMessage` keeps the
 * provider's own wording for logs. `context_overflow` is surfaced so the engine can compact and retry
 * once; it is never retried here.
 */
export interface ModelError {
  kind: ModelErrorKind
  message: string
  status?: number
  providerMessage?: string
  /** From `retry-after` / `retry-after-ms`, when the provider sent one. */
  retryAfterMs?: number
}

/**
 * Events of one model response, in wire order. `index` is the block's position in the assembled
 * assistant message. Deltas are for display; the `*_end` events carry the complete block.
 *
 * `retrying` means the attempt failed and will be repeated after `delayMs`: anything streamed since
 * the previous `retrying` (or the start) is void, and consumers reset their partial message.
 * The stream always ends with exactly one `message_end` or one `error`.
 */
export type StreamEvent =
  | { type: 'text_start'; index: number }
  | { type: 'text_delta'; index: number; text: string }
  | { type: 'text_end'; index: number; text: string }
  | { type: 'thinking_start'; index: number }
  | { type: 'thinking_delta'; index: number; thinking: string }
  | {
      type: 'thinking_end'
      index: number
      thinking: string
      /** Anthropic's signature, to be sent back verbatim. */
      signature?: string
      /** OpenAI Responses reasoning item id and encrypted content, to be sent back verbatim. */
      encrypted?: { id: string; content: string }
    }
  | { type: 'redacted_thinking'; index: number; data: string }
  | { type: 'tool_call_start'; index: number; id: string; name: string }
  | { type: 'tool_call_args_delta'; index: number; argsText: string }
  | ToolCallEndEvent
  | { type: 'usage'; usage: Usage }
  | MessageEndEvent
  | { type: 'retrying'; attempt: number; delayMs: number; reason: string; error: ModelError }
  | { type: 'error'; error: ModelError }

/**
 * The end of one tool call. Malformed argument JSON never throws: `input` is then `{}` and
 * `parseError` says what was wrong, so the engine can answer the call with an error result.
 */
export interface ToolCallEndEvent {
  type: 'tool_call_end'
  index: number
  id: string
  name: string
  input: Record<string, unknown>
  /** The raw arguments text as streamed. */
  argsText: string
  parseError?: string
}

/** The successful end of a response, with the assembled assistant content. */
export interface MessageEndEvent {
  type: 'message_end'
  stopReason: StopReason
  /** The provider's raw stop reason, for logs. */
  providerStopReason?: string
  content: ContentBlock[]
  usage: Usage
  /** Tool calls whose arguments were not a JSON object (their blocks carry `input: {}`). */
  toolCallErrors: ToolCallError[]
}

/** A tool call whose arguments could not be parsed. */
export interface ToolCallError {
  id: string
  name: string
  argsText: string
  message: string
}

/** The type tags of stream events. */
export type StreamEventType = StreamEvent['type']

/**
 * A model client. `stream` must not throw: every failure, including a synchronous one and an abort,
 * ends the iterable with an `error` event. Aborting `signal` closes the HTTP stream promptly and
 * ends with `{ type: 'error', error: { kind: 'aborted' } }`.
 */
export interface ModelClient {
  /** Which provider this client talks to (for logs and cost lookups). */
  readonly provider: ProviderName
  stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<StreamEvent>
  /**
   * Starts loading the provider SDK in the background, so the first request does not pay for it
   * (the SDKs are imported lazily to keep CLI startup fast). Never rejects.
   */
  warm?(): Promise<void>
  /**
   * Releases what the client holds on the provider for its session (the Gemini client deletes its
   * context caches). The engine calls it when the session that created the client closes; a factory
   * that shares one client between sessions should return clients without it. Never rejects.
   */
  close?(): Promise<void>
}

/** The providers a model ref may name. `scripted` is the CLI's scripted client (`scripted:<file>`). */
export type ProviderName = 'anthropic' | 'openai' | 'openai-chat' | 'openrouter' | 'gemini' | 'scripted'

/** The result of collecting a stream: the final message or the error it ended with. */
export type ModelResult =
  | ({ ok: true; retries: number } & Omit<MessageEndEvent, 'type'>)
  | { ok: false; error: ModelError; retries: number }

/** The model settings of one round (setModel may change them between rounds). */
export interface RoundModel {
  client: ModelClient
  /** The provider's model id. */
  id: string
  maxOutputTokens: number
  reasoning?: ReasoningOptions
}
