/**
 * ModelRequest → OpenAI Responses request body. Stateless (`store: false`): the whole transcript is
 * sent each time, and reasoning items travel back with their `encrypted_content`
 * (`include: ['reasoning.encrypted_content']`) so the model keeps its chain of thought across tool
 * rounds. Caching is automatic on a stable prefix, so there are no markers to place.
 */
import type { ContentBlock, Message } from '@z-engine/protocol'
import type {
  ResponseCreateParamsStreaming,
  ResponseFunctionCallOutputItemList,
  ResponseInputItem,
  ResponseInputMessageContentList,
} from 'openai/resources/responses/responses'
import { findModel } from '../catalog.js'
import { imageUrl } from '../openai-chat/request.js'
import { responsesToolChoice } from '../tool-choice.js'
import type { ModelRequest } from '../types.js'

/** Builds the streaming Responses body. */
export function toResponsesRequest(request: ModelRequest): ResponseCreateParamsStreaming {
  const body: ResponseCreateParamsStreaming = {
    model: request.model,
    input: request.messages.flatMap(toItems),
    stream: true,
    store: false,
    max_output_tokens: request.maxOutputTokens,
  }
  // Non-reasoning models (gpt-4.1, gpt-4o) refuse the encrypted-reasoning include; unknown ids get it.
  if (request.reasoning || findModel(request.model)?.reasoning !== false)
    body.include = ['reasoning.encrypted_content']
  const instructions = request.system
    .map((section) => section.text)
    .filter((text) => text !== '')
    .join('\n\n')
  if (instructions !== '') body.instructions = instructions
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
      strict: false,
    }))
    if (request.toolChoice) body.tool_choice = responsesToolChoice(request.toolChoice)
  }
  if (request.reasoning) body.reasoning = { effort: request.reasoning.effort, summary: 'auto' }
  if (request.metadata?.userId !== undefined) body.safety_identifier = request.metadata.userId
  return body
}

function toItems(message: Message): ResponseInputItem[] {
  return message.role === 'user' ? userItems(message.content) : assistantItems(message.content)
}

function userItems(content: ContentBlock[]): ResponseInputItem[] {
  const items: ResponseInputItem[] = []
  const parts: ResponseInputMessageContentList = []
  for (const block of content) {
    switch (block.type) {
      case 'text':
        if (block.text !== '') parts.push({ type: 'input_text', text: block.text })
        break
      case 'image':
        parts.push({ type: 'input_image', image_url: imageUrl(block.source), detail: 'auto' })
        break
      case 'tool_result': {
        const hasImage = block.content.some((part) => part.type === 'image')
        const text = block.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n')
        const marked = block.isError && !/^error/i.test(text) ? `Error: ${text}` : text
        const output: string | ResponseFunctionCallOutputItemList = hasImage
          ? block.content.map((part) =>
              part.type === 'text'
                ? { type: 'input_text' as const, text: part.text }
                : { type: 'input_image' as const, image_url: imageUrl(part.source), detail: 'auto' as const },
            )
          : marked
        items.push({ type: 'function_call_output', call_id: block.toolUseId, output })
        break
      }
      case 'thinking':
      case 'redacted_thinking':
      case 'tool_use':
        break
      default: {
        const unreachable: never = block
        return unreachable
      }
    }
  }
  if (parts.length > 0) items.push({ type: 'message', role: 'user', content: parts })
  return items
}

function assistantItems(content: ContentBlock[]): ResponseInputItem[] {
  const items: ResponseInputItem[] = []
  for (const block of content) {
    switch (block.type) {
      case 'text':
        if (block.text !== '') items.push({ role: 'assistant', content: block.text })
        break
      case 'thinking':
        // Only reasoning that came from the Responses API (it has the encrypted payload) can go back.
        if (block.encrypted) {
          items.push({
            type: 'reasoning',
            id: block.encrypted.id,
            encrypted_content: block.encrypted.content,
            summary: block.thinking === '' ? [] : [{ type: 'summary_text', text: block.thinking }],
          })
        }
        break
      case 'tool_use':
        items.push({
          type: 'function_call',
          call_id: block.id,
          name: block.name,
          arguments: JSON.stringify(block.input),
        })
        break
      case 'redacted_thinking':
      case 'image':
      case 'tool_result':
        break
      default: {
        const unreachable: never = block
        return unreachable
      }
    }
  }
  return items
}
