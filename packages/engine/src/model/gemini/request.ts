/**
 * ModelRequest → the `@google/genai` `generateContentStream` parameters. System sections become the
 * system instruction, tools become function declarations with their schemas converted to Gemini's
 * subset (schema.ts), tool results become `functionResponse` parts, and Gemini's thought signatures
 * go back on the parts they came with. The output is a pure function of the request, so every
 * request of a session extends the previous one byte for byte (Gemini's implicit cache keys on it).
 */
import type {
  Content,
  FunctionCallingConfigMode,
  FunctionDeclaration,
  GenerateContentConfig,
  GenerateContentParameters,
  Part,
  ThinkingConfig,
  ThinkingLevel,
} from '@google/genai'
import type { ContentBlock, ImageSource, Message, ToolChoice } from '@z-engine/protocol'
import type { ModelRequest, ReasoningOptions } from '../types.js'
import { toGeminiParameters } from './schema.js'
import { fromGeminiSignature, isGeminiSignature } from './signature.js'

/** Thinking budgets by effort for the Gemini 2.5 models (which take a budget, not a level). */
const BUDGET_BY_EFFORT: Record<ReasoningOptions['effort'], number> = {
  minimal: 512,
  low: 2048,
  medium: 8192,
  high: 24_576,
}

/** Builds the parameters of one streamed request (the caller adds `abortSignal`). */
export function toGeminiRequest(request: ModelRequest): GenerateContentParameters {
  const config: GenerateContentConfig = { maxOutputTokens: request.maxOutputTokens }
  const system = request.system.filter((section) => section.text !== '')
  if (system.length > 0)
    config.systemInstruction = { parts: system.map((section): Part => ({ text: section.text })) }
  if (request.tools.length > 0) {
    config.tools = [
      {
        functionDeclarations: request.tools.map((tool): FunctionDeclaration => {
          const declaration: FunctionDeclaration = { name: tool.name, description: tool.description }
          const parameters = toGeminiParameters(tool.inputSchema)
          if (parameters !== undefined)
            declaration.parameters = parameters as NonNullable<FunctionDeclaration['parameters']>
          return declaration
        }),
      },
    ]
    if (request.toolChoice) config.toolConfig = { functionCallingConfig: toToolChoice(request.toolChoice) }
  }
  if (request.reasoning)
    config.thinkingConfig = thinkingConfig(request.model, request.reasoning, request.maxOutputTokens)
  return { model: request.model, contents: toContents(request.messages), config }
}

/**
 * Gemini 3 takes a thinking level; Gemini 2.5 a token budget (kept below the output limit). Thought
 * summaries are asked for so the user sees the reasoning.
 */
function thinkingConfig(model: string, reasoning: ReasoningOptions, maxOutputTokens: number): ThinkingConfig {
  const config: ThinkingConfig = { includeThoughts: true }
  if (/^gemini-3/.test(model) && reasoning.budgetTokens === undefined) {
    config.thinkingLevel = levelOf(model, reasoning.effort)
    return config
  }
  const wanted = reasoning.budgetTokens ?? BUDGET_BY_EFFORT[reasoning.effort]
  config.thinkingBudget = Math.max(0, Math.min(wanted, maxOutputTokens - 1))
  return config
}

/** Gemini 3 Pro knows only LOW and HIGH; the other Gemini 3 models take all four levels. */
function levelOf(model: string, effort: ReasoningOptions['effort']): ThinkingLevel {
  const level = /pro/.test(model)
    ? effort === 'minimal' || effort === 'low'
      ? 'LOW'
      : 'HIGH'
    : effort === 'minimal'
      ? 'MINIMAL'
      : effort.toUpperCase()
  return level as ThinkingLevel
}

function toToolChoice(choice: ToolChoice): {
  mode: FunctionCallingConfigMode
  allowedFunctionNames?: string[]
} {
  const mode = (value: string): FunctionCallingConfigMode => value as FunctionCallingConfigMode
  switch (choice.type) {
    case 'auto':
      return { mode: mode('AUTO') }
    case 'any':
      return { mode: mode('ANY') }
    case 'none':
      return { mode: mode('NONE') }
    case 'tool':
      return { mode: mode('ANY'), allowedFunctionNames: [choice.name] }
    default: {
      const unreachable: never = choice
      return unreachable
    }
  }
}

function toContents(messages: Message[]): Content[] {
  // functionResponse parts name their function; the transcript keeps only the call id.
  const names = new Map<string, string>()
  for (const message of messages)
    for (const block of message.content) if (block.type === 'tool_use') names.set(block.id, block.name)
  return messages
    .map(
      (message): Content => ({
        role: message.role === 'assistant' ? 'model' : 'user',
        parts: message.role === 'assistant' ? modelParts(message.content) : userParts(message.content, names),
      }),
    )
    .filter((content) => (content.parts?.length ?? 0) > 0)
}

/**
 * An assistant turn. Gemini's own signed thoughts go back with their signatures: a thought with
 * text as a thought part, an empty one (the signature Gemini put on a text or call part) on the
 * part that follows it. Thinking from other providers cannot be verified by Gemini and is dropped.
 */
function modelParts(blocks: ContentBlock[]): Part[] {
  const parts: Part[] = []
  let pending: string | undefined
  const push = (part: Part): void => {
    if (pending !== undefined) part.thoughtSignature = pending
    pending = undefined
    parts.push(part)
  }
  for (const block of blocks) {
    switch (block.type) {
      case 'thinking': {
        if (!isGeminiSignature(block.signature)) break
        const signature = fromGeminiSignature(block.signature)
        if (block.thinking === '') pending = signature
        else push({ text: block.thinking, thought: true, thoughtSignature: signature })
        break
      }
      case 'text':
        if (block.text !== '' || pending !== undefined) push({ text: block.text })
        break
      case 'tool_use':
        push({ functionCall: { id: block.id, name: block.name, args: block.input } })
        break
      case 'image':
        push(imagePart(block.source))
        break
      case 'redacted_thinking':
      case 'tool_result':
        break
      default: {
        const unreachable: never = block
        return unreachable
      }
    }
  }
  // A signature Gemini sent on a trailing empty text part goes back the same way.
  if (pending !== undefined) push({ text: '' })
  return parts
}

function userParts(blocks: ContentBlock[], names: ReadonlyMap<string, string>): Part[] {
  return blocks.flatMap((block): Part[] => {
    switch (block.type) {
      case 'text':
        return block.text === '' ? [] : [{ text: block.text }]
      case 'image':
        return [imagePart(block.source)]
      case 'tool_result': {
        const text = block.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n')
        const images = block.content.flatMap((part) =>
          part.type === 'image' ? [imagePart(part.source)] : [],
        )
        const response = block.isError ? { error: text } : { output: text }
        return [
          {
            functionResponse: {
              id: block.toolUseId,
              name: names.get(block.toolUseId) ?? 'unknown',
              response,
            },
          },
          ...images,
        ]
      }
      case 'thinking':
      case 'redacted_thinking':
      case 'tool_use':
        return []
      default: {
        const unreachable: never = block
        return unreachable
      }
    }
  })
}

function imagePart(source: ImageSource): Part {
  switch (source.type) {
    case 'base64':
      return { inlineData: { mimeType: source.mediaType, data: source.data } }
    case 'url':
      return { fileData: { fileUri: source.url, mimeType: mimeOfUrl(source.url) } }
    default: {
      const unreachable: never = source
      return unreachable
    }
  }
}

function mimeOfUrl(url: string): string {
  const extension = /\.(png|jpe?g|gif|webp)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase()
  switch (extension) {
    case 'png':
      return 'image/png'
    case 'gif':
      return 'image/gif'
    case 'webp':
      return 'image/webp'
    default:
      return 'image/jpeg'
  }
}
