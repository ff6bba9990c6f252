/**
 * ModelRequest → Chat Completions request body, for OpenAI and every compatible server (vLLM,
 * llama.cpp, Ollama, LiteLLM, OpenRouter). With `cacheControl` on (OpenRouter by default, others via
 * `provider.cache_control`), Anthropic-style `cache_control` markers are passed through on the last
 * cacheable system part and the last two user turns.
 */
import type { ContentBlock, ImageSource, Message } from '@z-engine/protocol'
import { chatToolChoice } from '../tool-choice.js'
import type { ModelRequest } from '../types.js'

/** How the adapter shapes fields that compatible servers disagree on. */
export interface ChatDialect {
  /** Pass `cache_control` markers through (OpenRouter, LiteLLM to Anthropic). */
  cacheControl: boolean
  /** OpenAI's own API wants `max_completion_tokens`; most compatible servers take `max_tokens`. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens'
  /** OpenAI takes `reasoning_effort`; OpenRouter takes `reasoning: { effort }`. */
  reasoningField: 'reasoning_effort' | 'reasoning'
}

/** A text part, optionally carrying a passthrough cache marker. */
interface TextPart {
  type: 'text'
  text: string
  cache_control?: { type: 'ephemeral' }
}
interface ImagePart {
  type: 'image_url'
  image_url: { url: string }
}
type Part = TextPart | ImagePart

/** One Chat Completions message as we send it. */
export type ChatMessage =
  | { role: 'system'; content: string | TextPart[] }
  | { role: 'user'; content: string | Part[] }
  | {
      role: 'assistant'
      content: string | null
      tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>
    }
  | { role: 'tool'; tool_call_id: string; content: string | TextPart[] }

/** The request body (streaming). */
export interface ChatRequestBody {
  model: string
  messages: ChatMessage[]
  stream: true
  stream_options: { include_usage: true }
  tools?: Array<{ type: 'function'; function: { name: string; description: string; parameters: object } }>
  tool_choice?: 'auto' | 'required' | 'none' | { type: 'function'; function: { name: string } }
  max_tokens?: number
  max_completion_tokens?: number
  reasoning_effort?: string
  reasoning?: { effort: string }
  user?: string
}

const EPHEMERAL = { type: 'ephemeral' } as const

/** Builds the Chat Completions body. */
export function toChatRequest(request: ModelRequest, dialect: ChatDialect): ChatRequestBody {
  const messages: ChatMessage[] = []
  const system = toSystem(request, dialect.cacheControl)
  if (system) messages.push(system)
  const userIndexes = request.messages.flatMap((message, index) => (message.role === 'user' ? [index] : []))
  const breakpoints = new Set(dialect.cacheControl ? userIndexes.slice(-2) : [])
  request.messages.forEach((message, index) => {
    const converted = toMessages(message)
    if (breakpoints.has(index)) markLast(converted)
    messages.push(...converted)
  })
  const body: ChatRequestBody = {
    model: request.model,
    messages,
    stream: true,
    stream_options: { include_usage: true },
  }
  body[dialect.maxTokensField] = request.maxOutputTokens
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    }))
    if (request.toolChoice) body.tool_choice = chatToolChoice(request.toolChoice)
  }
  if (request.reasoning) {
    const effort = request.reasoning.effort
    if (dialect.reasoningField === 'reasoning') body.reasoning = { effort }
    else body.reasoning_effort = effort
  }
  if (request.metadata?.userId !== undefined) body.user = request.metadata.userId
  return body
}

function toSystem(request: ModelRequest, cacheControl: boolean): ChatMessage | undefined {
  const sections = request.system.filter((section) => section.text !== '')
  if (sections.length === 0) return undefined
  if (!cacheControl) return { role: 'system', content: sections.map((section) => section.text).join('\n\n') }
  let lastCacheable = -1
  sections.forEach((section, index) => {
    if (section.cacheable) lastCacheable = index
  })
  return {
    role: 'system',
    content: sections.map((section, index): TextPart => {
      const part: TextPart = { type: 'text', text: section.text }
      if (index === lastCacheable) part.cache_control = EPHEMERAL
      return part
    }),
  }
}

/** Puts a cache marker on the last text part of the last converted message of a user turn. */
function markLast(messages: ChatMessage[]): void {
  const last = messages[messages.length - 1]
  if (last === undefined || last.role === 'assistant' || last.role === 'system') return
  if (typeof last.content === 'string') last.content = [{ type: 'text', text: last.content }]
  const parts: Part[] = last.content
  for (let index = parts.length - 1; index >= 0; index--) {
    const part = parts[index]
    if (part?.type === 'text') {
      part.cache_control = EPHEMERAL
      return
    }
  }
}

/** Image source → a URL (data: URL for inline bytes). */
export function imageUrl(source: ImageSource): string {
  return source.type === 'url' ? source.url : `data:${source.mediaType};base64,${source.data}`
}

/**
 * One neutral message → Chat messages. A user message's tool results become `tool` messages first
 * (they must follow the assistant's calls directly); its text and images follow as a user message.
 */
function toMessages(message: Message): ChatMessage[] {
  if (message.role === 'assistant') return [toAssistant(message.content)]
  const out: ChatMessage[] = []
  const rest: Part[] = []
  const toolImages: Part[] = []
  for (const block of message.content) {
    switch (block.type) {
      case 'tool_result': {
        const text = block.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n')
        const marked = block.isError && !/^error/i.test(text) ? `Error: ${text}` : text
        out.push({ role: 'tool', tool_call_id: block.toolUseId, content: marked })
        // Tool messages hold text only on most servers; images travel in the user message after them.
        for (const part of block.content) {
          if (part.type === 'image')
            toolImages.push({ type: 'image_url', image_url: { url: imageUrl(part.source) } })
        }
        break
      }
      case 'text':
        if (block.text !== '') rest.push({ type: 'text', text: block.text })
        break
      case 'image':
        rest.push({ type: 'image_url', image_url: { url: imageUrl(block.source) } })
        break
      case 'thinking':
      case 'redacted_thinking':
      case 'tool_use':
        // Not valid in a user turn; nothing to send.
        break
      default: {
        const unreachable: never = block
        return unreachable
      }
    }
  }
  const parts = [...toolImages, ...rest]
  if (parts.length > 0) {
    const onlyText = parts.every((part) => part.type === 'text')
    out.push({
      role: 'user',
      content: onlyText && parts.length === 1 ? (parts[0] as TextPart).text : parts,
    })
  }
  return out
}

function toAssistant(content: ContentBlock[]): ChatMessage {
  const text = content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('')
  const calls = content.flatMap((block) =>
    block.type === 'tool_use'
      ? [
          {
            id: block.id,
            type: 'function' as const,
            function: { name: block.name, arguments: JSON.stringify(block.input) },
          },
        ]
      : [],
  )
  // Reasoning is not sent back: Chat Completions has no standard field for it, and some servers
  // (DeepSeek) reject `reasoning_content` in input.
  // `null` content is valid only beside tool calls; several servers reject it otherwise.
  const message: ChatMessage = { role: 'assistant', content: text === '' && calls.length > 0 ? null : text }
  if (calls.length > 0) message.tool_calls = calls
  return message
}
