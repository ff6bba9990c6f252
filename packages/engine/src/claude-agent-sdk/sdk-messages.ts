import { createHash, randomUUID } from 'node:crypto'
import type { ContentBlock, EventEnvelope, EventOf, Message, Usage } from '@z-engine/protocol'
import type {
  ModelUsage,
  SDKContentBlock,
  SDKMessage,
  SDKPermissionDenial,
  SDKResultMessage,
  SDKToolResultBlock,
  SDKUsage,
} from './sdk-message-types.js'

/** Token usage in the Anthropic API's spelling. */
export function sdkUsage(usage: Usage): SDKUsage {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens,
    cache_read_input_tokens: usage.cacheReadTokens,
  }
}

const NO_USAGE: SDKUsage = sdkUsage({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
})

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * A message's `uuid`: its engine id when that is a UUID, else a UUID derived from it (name-based,
 * version 5 layout), so the same message has the same uuid on every read.
 */
export function messageUuid(id: string): string {
  if (UUID.test(id)) return id.toLowerCase()
  const hex = createHash('sha1').update(`z-engine-message:${id}`).digest('hex')
  const variant = ((Number.parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(18, 20)}-${hex.slice(20, 32)}`
}

/** The model id without the engine's provider prefix (`anthropic/claude-x` → `claude-x`). */
export function bareModel(ref: string): string {
  const slash = ref.indexOf('/')
  return slash === -1 ? ref : ref.slice(slash + 1)
}

type StreamEvent = Extract<SDKMessage, { type: 'stream_event' }>['event']

/**
 * Turns one query's engine events into the Claude Agent SDK's messages: assistant messages and tool
 * results as they are recorded, partial text and thinking when asked, and the result message when
 * the turn ends (refused calls, usage and cost per model, subagents' included). Subagents' messages
 * are left out, as the Claude Agent SDK reports only the main conversation.
 */
export class MessageTranslator {
  readonly #sessionId: string
  readonly #model: string
  readonly #partial: boolean
  readonly #started = Date.now()
  readonly #inputs = new Map<string, { name: string; input: Record<string, unknown> }>()
  readonly #denials: SDKPermissionDenial[] = []
  readonly #modelUsage: Record<string, ModelUsage> = {}
  #lastUsage: SDKUsage = NO_USAGE
  #rounds = 0
  #blockIndex = new Map<string, number>()
  /** Whether `message_start` went out for the assistant message being streamed. */
  #messageStarted = false
  /** Milliseconds from the start to the turn's first step and to its first streamed content. */
  #firstStep: number | undefined
  #firstContent: number | undefined

  constructor(options: { sessionId: string; model: string; includePartialMessages: boolean }) {
    this.#sessionId = options.sessionId
    this.#model = bareModel(options.model)
    this.#partial = options.includePartialMessages
  }

  /** The messages one event becomes (often none). */
  translate(envelope: EventEnvelope): SDKMessage[] {
    const event = envelope.event
    if (envelope.agentId !== undefined) {
      // Subagents' requests count in modelUsage, as in Claude Code; their messages are not reported.
      if (event.type === 'usageUpdated') this.#addModelUsage(event)
      return []
    }
    if (event.type === 'turnStarted') this.#firstStep ??= Date.now() - this.#started
    if (event.type === 'textDelta' || event.type === 'thinkingDelta')
      this.#firstContent ??= Date.now() - this.#started
    switch (event.type) {
      case 'usageUpdated':
        this.#lastUsage = sdkUsage(event.usage)
        this.#addModelUsage(event)
        return []
      case 'messageRecorded':
        return this.#message(event.message, event.origin)
      case 'toolFinished':
        if (event.status === 'denied') {
          const call = this.#inputs.get(event.toolUseId)
          this.#denials.push({
            tool_name: event.toolName,
            tool_use_id: event.toolUseId,
            tool_input: call?.input ?? {},
          })
        }
        return []
      case 'textStart':
      case 'thinkingStart':
        return this.#stream(envelope, {
          type: 'content_block_start',
          index: this.#index(event.id),
          content_block:
            event.type === 'textStart' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '' },
        })
      case 'textDelta':
        return this.#stream(envelope, {
          type: 'content_block_delta',
          index: this.#index(event.id),
          delta: { type: 'text_delta', text: event.delta },
        })
      case 'thinkingDelta':
        return this.#stream(envelope, {
          type: 'content_block_delta',
          index: this.#index(event.id),
          delta: { type: 'thinking_delta', thinking: event.delta },
        })
      case 'textEnd':
      case 'thinkingEnd':
        return this.#stream(envelope, { type: 'content_block_stop', index: this.#index(event.id) })
      case 'turnFinished':
        return [this.result(event)]
      default:
        return []
    }
  }

  /** The result message of a finished turn. */
  result(event: EventOf<'turnFinished'>): SDKResultMessage {
    const outcome = event.outcome
    const subtype =
      outcome.type === 'done'
        ? 'success'
        : outcome.type === 'budgetExhausted'
          ? outcome.budget === 'maxTurns'
            ? 'error_max_turns'
            : 'error_max_budget_usd'
          : 'error_during_execution'
    const errors =
      outcome.type === 'failed'
        ? [outcome.error.message]
        : outcome.type === 'cancelled' || outcome.type === 'interrupted'
          ? [`The turn was ${outcome.type}.`]
          : outcome.type === 'budgetExhausted'
            ? [`The turn reached its ${outcome.budget === 'maxTurns' ? 'maxTurns' : 'cost cap'} limit.`]
            : outcome.type === 'incomplete'
              ? [outcome.message]
              : undefined
    const elapsed = Date.now() - this.#started
    return {
      type: 'result',
      subtype,
      uuid: randomUUID(),
      session_id: this.#sessionId,
      duration_ms: elapsed,
      // The engine does not time model requests apart from the turn: the turn's wall time stands in.
      duration_api_ms: elapsed,
      is_error: subtype !== 'success',
      num_turns: this.#rounds,
      result: event.text ?? '',
      stop_reason: subtype === 'success' ? 'end_turn' : null,
      total_cost_usd: event.cost.totalUsd,
      usage: sdkUsage(event.usage),
      modelUsage: this.#modelUsage,
      permission_denials: [...this.#denials],
      ...(errors !== undefined ? { errors } : {}),
      terminal_reason: terminalReason(outcome),
      api_error_status: outcome.type === 'failed' ? (HTTP_STATUS[outcome.error.code] ?? null) : null,
      ttft_ms: this.#firstContent ?? elapsed,
      ttft_stream_ms: this.#firstContent ?? elapsed,
      time_to_request_ms: this.#firstStep ?? 0,
      first_content_frame_ms: this.#firstContent ?? elapsed,
      fast_mode_state: 'off',
      fast_mode_disabled_reason: 'unknown',
    }
  }

  #message(message: Message, origin: string | undefined): SDKMessage[] {
    if (message.role === 'assistant') {
      this.#rounds += 1
      this.#blockIndex = new Map()
      const content = message.content.flatMap((block) => assistantBlock(block))
      for (const block of content)
        if (block.type === 'tool_use') this.#inputs.set(block.id, { name: block.name, input: block.input })
      const usage = this.#lastUsage
      this.#lastUsage = NO_USAGE
      const stopReason = content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn'
      // The streamed message ends as the Messages API's stream does, before the whole message.
      const ending = this.#partial
        ? [
            ...(this.#messageStarted ? [] : this.#streamed(this.#messageStart(message.id))),
            ...this.#streamed({
              type: 'message_delta',
              delta: { stop_reason: stopReason, stop_sequence: null },
              usage,
            }),
            ...this.#streamed({ type: 'message_stop' }),
          ]
        : []
      this.#messageStarted = false
      return [
        ...ending,
        {
          type: 'assistant',
          uuid: messageUuid(message.id),
          session_id: this.#sessionId,
          parent_tool_use_id: null,
          message: {
            id: message.id,
            type: 'message',
            role: 'assistant',
            model: this.#model,
            content,
            stop_reason: stopReason,
            stop_sequence: null,
            usage,
          },
        },
      ]
    }
    if (origin !== 'toolResults') return []
    const results = message.content.flatMap((block) =>
      block.type === 'tool_result' ? [toolResult(block)] : [],
    )
    return [
      {
        type: 'user',
        uuid: messageUuid(message.id),
        session_id: this.#sessionId,
        parent_tool_use_id: null,
        message: { role: 'user', content: results },
      },
    ]
  }

  #stream(envelope: EventEnvelope, event: StreamEvent): SDKMessage[] {
    if (!this.#partial) return []
    // The first block of an assistant message opens it, as `message_start` does on the wire.
    const start =
      event.type === 'content_block_start' && !this.#messageStarted
        ? this.#streamed(this.#messageStart(`msg_${envelope.sessionId.slice(0, 8)}_${envelope.seq}`))
        : []
    if (start.length > 0) this.#messageStarted = true
    return [...start, ...this.#streamed(event)]
  }

  #messageStart(id: string): StreamEvent {
    return {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: this.#model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: NO_USAGE,
      },
    }
  }

  #streamed(event: StreamEvent): SDKMessage[] {
    return [
      {
        type: 'stream_event',
        uuid: randomUUID(),
        session_id: this.#sessionId,
        parent_tool_use_id: null,
        event,
      },
    ]
  }

  #index(partId: string): number {
    let index = this.#blockIndex.get(partId)
    if (index === undefined) {
      index = this.#blockIndex.size
      this.#blockIndex.set(partId, index)
    }
    return index
  }

  #addModelUsage(event: EventOf<'usageUpdated'>): void {
    const model = bareModel(event.model ?? this.#model)
    const entry = this.#modelUsage[model] ?? {
      inputTokens: 0,
      outputTokens: 0,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
      webSearchRequests: 0,
      costUSD: 0,
      contextWindow: 0,
    }
    this.#modelUsage[model] = entry
    entry.inputTokens += event.usage.inputTokens
    entry.outputTokens += event.usage.outputTokens
    entry.cacheReadInputTokens += event.usage.cacheReadTokens
    entry.cacheCreationInputTokens += event.usage.cacheWriteTokens
    entry.costUSD += event.cost.totalUsd
    if (event.contextWindow !== undefined) entry.contextWindow = event.contextWindow
  }
}

/** Claude Code's `terminal_reason` for how a turn ended. */
function terminalReason(outcome: EventOf<'turnFinished'>['outcome']): string {
  switch (outcome.type) {
    case 'done':
      return 'completed'
    case 'budgetExhausted':
      return outcome.budget === 'maxTurns' ? 'max_turns' : 'budget_exhausted'
    case 'failed':
      return outcome.error.code === 'context_overflow' ? 'prompt_too_long' : 'model_error'
    case 'incomplete':
      return 'model_error'
    case 'interrupted':
    case 'cancelled':
      return 'aborted_streaming'
    default: {
      const unreachable: never = outcome
      return unreachable
    }
  }
}

/** The HTTP status behind each model error kind (a failure with another code had none). */
const HTTP_STATUS: Readonly<Record<string, number>> = {
  invalid_request: 400,
  context_overflow: 400,
  authentication: 401,
  permission: 403,
  not_found: 404,
  rate_limited: 429,
  server: 500,
  overloaded: 529,
}

function assistantBlock(block: ContentBlock): SDKContentBlock[] {
  switch (block.type) {
    case 'text':
      return [{ type: 'text', text: block.text }]
    case 'thinking':
      return [{ type: 'thinking', thinking: block.thinking, signature: block.signature ?? '' }]
    case 'redacted_thinking':
      return [{ type: 'redacted_thinking', data: block.data }]
    case 'tool_use':
      return [{ type: 'tool_use', id: block.id, name: block.name, input: block.input }]
    case 'image':
    case 'tool_result':
      return []
    default: {
      const unreachable: never = block
      return unreachable
    }
  }
}

function toolResult(block: Extract<ContentBlock, { type: 'tool_result' }>): SDKToolResultBlock {
  // Text alone goes as one string, as Claude Code writes a tool result; an image needs the blocks.
  const textOnly = block.content.every((part) => part.type === 'text')
  return {
    type: 'tool_result',
    tool_use_id: block.toolUseId,
    content: textOnly
      ? block.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')
      : block.content.map((part) =>
          part.type === 'text'
            ? { type: 'text', text: part.text }
            : {
                type: 'image',
                source:
                  part.source.type === 'base64'
                    ? { type: 'base64', media_type: part.source.mediaType, data: part.source.data }
                    : { type: 'url', url: part.source.url },
              },
        ),
    is_error: block.isError,
  }
}
