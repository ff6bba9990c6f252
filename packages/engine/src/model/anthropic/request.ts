/**
 * ModelRequest → Anthropic Messages request body, with prompt-cache breakpoints placed as the spec
 * says: the last cacheable system section, the last tool, and the last two user messages (at most
 * four, Anthropic's limit).
 */

import type {
  ToolChoice as AnthropicToolChoice,
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages'
import type { ContentBlock, Message, ToolChoice } from '@z-engine/protocol'
import { isGeminiSignature } from '../gemini/signature.js'
import type { ModelRequest, ReasoningOptions } from '../types.js'

const EPHEMERAL = { type: 'ephemeral' } as const

/** Models where a thinking budget is deprecated in favour of adaptive thinking (per the SDK's own list). */
const ADAPTIVE_THINKING_MODELS = new Set(['claude-opus-4-6', 'claude-mythos-preview'])

/** Thinking budgets by effort, used when the request gives none. */
const BUDGET_BY_EFFORT: Record<ReasoningOptions['effort'], number> = {
  minimal: 1024,
  low: 4096,
  medium: 10_000,
  high: 32_000,
}

/** Builds the streaming Messages request body; `cacheControl: false` (provider.cache_control) omits every breakpoint. */
export function toAnthropicRequest(request: ModelRequest, cacheControl = true): MessageCreateParamsStreaming {
  const body: MessageCreateParamsStreaming = {
    model: request.model,
    max_tokens: request.maxOutputTokens,
    messages: toMessages(request.messages, cacheControl),
    stream: true,
  }
  const system = toSystem(request, cacheControl)
  if (system.length > 0) body.system = system
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool, index): Tool => {
      const spec: Tool = {
        name: tool.name,
        description: tool.description,
        input_schema: tool.inputSchema as Tool['input_schema'],
      }
      if (cacheControl && index === request.tools.length - 1) spec.cache_control = EPHEMERAL
      return spec
    })
  }
  if (request.toolChoice && request.tools.length > 0) body.tool_choice = toToolChoice(request.toolChoice)
  // Anthropic refuses extended thinking together with a forced tool choice, so forcing wins.
  const forced = request.toolChoice?.type === 'any' || request.toolChoice?.type === 'tool'
  const reasoning = forced ? undefined : request.reasoning
  const budget = reasoning ? thinkingBudget(reasoning, request.maxOutputTokens) : undefined
  if (reasoning && ADAPTIVE_THINKING_MODELS.has(request.model)) {
    body.thinking = { type: 'adaptive' }
  } else if (budget !== undefined) {
    body.thinking = { type: 'enabled', budget_tokens: budget }
  }
  if (request.metadata?.userId !== undefined) body.metadata = { user_id: request.metadata.userId }
  return body
}

/** The budget for extended thinking: at least 1,024 tokens and below max_tokens, or none if that cannot be. */
function thinkingBudget(reasoning: ReasoningOptions, maxOutputTokens: number): number | undefined {
  const wanted = reasoning.budgetTokens ?? BUDGET_BY_EFFORT[reasoning.effort]
  const budget = Math.min(wanted, maxOutputTokens - 1)
  return budget >= 1024 ? budget : undefined
}

function toSystem(request: ModelRequest, cacheControl: boolean): TextBlockParam[] {
  let lastCacheable = -1
  request.system.forEach((section, index) => {
    if (section.cacheable) lastCacheable = index
  })
  return request.system
    .map((section, index): TextBlockParam => {
      const block: TextBlockParam = { type: 'text', text: section.text }
      if (cacheControl && index === lastCacheable) block.cache_control = EPHEMERAL
      return block
    })
    .filter((block) => block.text !== '')
}

function toToolChoice(choice: ToolChoice): AnthropicToolChoice {
  switch (choice.type) {
    case 'auto':
      return { type: 'auto' }
    case 'any':
      return { type: 'any' }
    case 'none':
      return { type: 'none' }
    case 'tool':
      return { type: 'tool', name: choice.name }
    default: {
      const unreachable: never = choice
      return unreachable
    }
  }
}

function toMessages(messages: Message[], cacheControl: boolean): MessageParam[] {
  // A message left empty (e.g. only unsigned thinking from another provider) would be rejected.
  const converted = messages
    .map((message): MessageParam => ({ role: message.role, content: message.content.flatMap(toBlock) }))
    .filter((message) => message.content.length > 0)
  const userIndexes = converted.flatMap((message, index) => (message.role === 'user' ? [index] : []))
  for (const index of cacheControl ? userIndexes.slice(-2) : []) {
    const content = converted[index]?.content
    const last = Array.isArray(content) ? content[content.length - 1] : undefined
    // Cache everything up to and including this user message.
    if (last !== undefined && canCache(last)) last.cache_control = EPHEMERAL
  }
  return converted
}

type CacheableBlock = Exclude<ContentBlockParam, { type: 'thinking' } | { type: 'redacted_thinking' }>

function canCache(block: ContentBlockParam): block is CacheableBlock {
  return block.type !== 'thinking' && block.type !== 'redacted_thinking'
}

function toBlock(block: ContentBlock): ContentBlockParam[] {
  switch (block.type) {
    case 'text':
      // Anthropic rejects empty text blocks.
      return block.text === '' ? [] : [{ type: 'text', text: block.text }]
    case 'image':
      return [toImage(block.source)]
    case 'thinking':
      // Thinking from another provider (unsigned, or Gemini's signature) would be rejected; it is dropped.
      return block.signature === undefined || isGeminiSignature(block.signature)
        ? []
        : [{ type: 'thinking', thinking: block.thinking, signature: block.signature }]
    case 'redacted_thinking':
      return [{ type: 'redacted_thinking', data: block.data }]
    case 'tool_use':
      return [{ type: 'tool_use', id: block.id, name: block.name, input: block.input }]
    case 'tool_result': {
      const content: Array<TextBlockParam | ImageBlockParam> = block.content.flatMap(
        (part): Array<TextBlockParam | ImageBlockParam> =>
          part.type === 'text'
            ? part.text === ''
              ? []
              : [{ type: 'text', text: part.text }]
            : [toImage(part.source)],
      )
      return [{ type: 'tool_result', tool_use_id: block.toolUseId, content, is_error: block.isError }]
    }
    default: {
      const unreachable: never = block
      return unreachable
    }
  }
}

function toImage(source: Extract<ContentBlock, { type: 'image' }>['source']): ImageBlockParam {
  switch (source.type) {
    case 'base64':
      return { type: 'image', source: { type: 'base64', media_type: source.mediaType, data: source.data } }
    case 'url':
      return { type: 'image', source: { type: 'url', url: source.url } }
    default: {
      const unreachable: never = source
      return unreachable
    }
  }
}
