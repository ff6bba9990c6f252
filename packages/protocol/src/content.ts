/**
 * Content blocks: the provider-neutral pieces a message is made of. Adapters translate them to and
 * from each provider's wire format; everything else in the engine sees only these.
 */

/** Plain text. `cache` marks a prompt-cache breakpoint after this block (set by the request builder). */
export interface TextBlock {
  type: 'text'
  text: string
}

/** Where an image's bytes come from. */
export type ImageSource =
  | { type: 'base64'; mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'; data: string }
  | { type: 'url'; url: string }

/** An image, sent only to models with vision. */
export interface ImageBlock {
  type: 'image'
  source: ImageSource
}

/**
 * Model reasoning. `signature` (Anthropic) or `encrypted` (OpenAI Responses reasoning items) must be
 * sent back verbatim on later requests, so both are kept exactly as received.
 */
export interface ThinkingBlock {
  type: 'thinking'
  thinking: string
  signature?: string
  /** Provider-opaque reasoning payload (OpenAI Responses `encrypted_content`), with its item id. */
  encrypted?: { id: string; content: string }
}

/** Reasoning the provider redacted; `data` is opaque and is returned unchanged. */
export interface RedactedThinkingBlock {
  type: 'redacted_thinking'
  data: string
}

/** A tool call made by the model. `input` is the parsed JSON object of the call's arguments. */
export interface ToolUseBlock {
  type: 'tool_use'
  id: string
  name: string
  input: Record<string, unknown>
}

/** Content a tool result may hold: text and images only. */
export type ToolResultContent = TextBlock | ImageBlock

/** The one result every tool_use receives, in call order. */
export interface ToolResultBlock {
  type: 'tool_result'
  toolUseId: string
  content: ToolResultContent[]
  isError: boolean
}

/** Every content block. */
export type ContentBlock =
  | TextBlock
  | ImageBlock
  | ThinkingBlock
  | RedactedThinkingBlock
  | ToolUseBlock
  | ToolResultBlock

/** The `type` tags of content blocks. */
export type ContentBlockType = ContentBlock['type']
