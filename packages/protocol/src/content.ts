/**
 * Content blocks: the provider-neutral pieces a message is made of. Adapters translate them to and
 * from each provider's wire format; everything else in the engine sees only these.
 */
import { anyObject, arr, bool, enums, type Infer, obj, str, tagged, variant } from './schema/builder.js'

/** Schema of {@link TextBlock}. */
export const TextBlockSchema = variant('text', { text: str() })
/** Plain text. */
export type TextBlock = Infer<typeof TextBlockSchema>

/** Schema of {@link ImageSource}. */
export const ImageSourceSchema = tagged([
  variant('base64', {
    mediaType: enums(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
    data: str(),
  }),
  variant('url', { url: str() }),
])
/** Where an image's bytes come from. */
export type ImageSource = Infer<typeof ImageSourceSchema>

/** Schema of {@link ImageBlock}. */
export const ImageBlockSchema = variant('image', { source: ImageSourceSchema })
/** An image, sent only to models with vision. */
export type ImageBlock = Infer<typeof ImageBlockSchema>

/** Schema of {@link ThinkingBlock}. */
export const ThinkingBlockSchema = variant(
  'thinking',
  { thinking: str() },
  {
    signature: str(),
    encrypted: obj({ id: str(), content: str() }),
  },
)
/**
 * Model reasoning. `signature` (Anthropic) or `encrypted` (OpenAI Responses reasoning items, with
 * the item id) must be sent back verbatim on later requests, so both are kept exactly as received.
 */
export type ThinkingBlock = Infer<typeof ThinkingBlockSchema>

/** Schema of {@link RedactedThinkingBlock}. */
export const RedactedThinkingBlockSchema = variant('redacted_thinking', { data: str() })
/** Reasoning the provider redacted; `data` is opaque and is returned unchanged. */
export type RedactedThinkingBlock = Infer<typeof RedactedThinkingBlockSchema>

/** Schema of {@link ToolUseBlock}. */
export const ToolUseBlockSchema = variant('tool_use', { id: str(), name: str(), input: anyObject() })
/** A tool call made by the model. `input` is the parsed JSON object of the call's arguments. */
export type ToolUseBlock = Infer<typeof ToolUseBlockSchema>

/** Schema of {@link ToolResultContent}. */
export const ToolResultContentSchema = tagged([TextBlockSchema, ImageBlockSchema])
/** Content a tool result may hold: text and images only. */
export type ToolResultContent = TextBlock | ImageBlock

/** Schema of {@link ToolResultBlock}. */
export const ToolResultBlockSchema = variant('tool_result', {
  toolUseId: str(),
  content: arr(ToolResultContentSchema),
  isError: bool(),
})
/** The one result every tool_use receives, in call order. */
export type ToolResultBlock = Infer<typeof ToolResultBlockSchema>

/** Schema of {@link ContentBlock}. */
export const ContentBlockSchema = tagged([
  TextBlockSchema,
  ImageBlockSchema,
  ThinkingBlockSchema,
  RedactedThinkingBlockSchema,
  ToolUseBlockSchema,
  ToolResultBlockSchema,
])
/** Every content block. */
export type ContentBlock = Infer<typeof ContentBlockSchema>

/** The `type` tags of content blocks. */
export type ContentBlockType = ContentBlock['type']

/** Schema of user attachments: what a user may add to a prompt besides its text (text or images). */
export const AttachmentSchema = tagged([TextBlockSchema, ImageBlockSchema])
