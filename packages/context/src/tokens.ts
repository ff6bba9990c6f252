import type { ContentBlock, Message, ToolSpec } from '@z-engine/protocol'
import { MEDIA_TOKENS } from './limits.js'

/**
 * Whether a code point is a Chinese, Japanese or Korean character. Tokenizers spend roughly one token
 * per such character, so counting them as a quarter token (like Latin text) would underestimate
 * CJK prompts about fourfold.
 */
function isCjk(code: number): boolean {
  return (
    (code >= 0x4e00 && code <= 0x9fff) || // CJK unified ideographs
    (code >= 0x3400 && code <= 0x4dbf) || // extension A
    (code >= 0x20000 && code <= 0x3134f) || // extensions B–G
    (code >= 0xf900 && code <= 0xfaff) || // compatibility ideographs
    (code >= 0x3000 && code <= 0x30ff) || // CJK punctuation, hiragana, katakana
    (code >= 0x31f0 && code <= 0x31ff) || // katakana phonetic extensions
    (code >= 0xac00 && code <= 0xd7af) || // hangul syllables
    (code >= 0x1100 && code <= 0x11ff) || // hangul jamo
    (code >= 0x3130 && code <= 0x318f) || // hangul compatibility jamo
    (code >= 0xff00 && code <= 0xffef) // half- and full-width forms
  )
}

const MAYBE_CJK = /[\u1100-\uffff]/

/** Estimated tokens of a text: characters / 4 rounded up, each CJK character one token. */
export function estimateTextTokens(text: string): number {
  // Most text has no character at or above U+1100; a native regex scan settles that fast.
  if (!MAYBE_CJK.test(text)) return Math.ceil(text.length / 4)
  let cjk = 0
  let other = 0
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    // Only the BMP CJK ranges and surrogate pairs need the slower code-point path.
    if (unit < 0x1100) {
      other++
      continue
    }
    const code = text.codePointAt(i) ?? unit
    if (code > 0xffff) i++
    if (isCjk(code)) cjk++
    else other++
  }
  return cjk + Math.ceil(other / 4)
}

/** Estimated tokens of one content block (media blocks count {@link MEDIA_TOKENS}). */
export function estimateBlockTokens(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return estimateTextTokens(block.text)
    case 'image':
      return MEDIA_TOKENS
    case 'thinking':
      return estimateTextTokens(block.thinking)
    case 'redacted_thinking':
      return estimateTextTokens(block.data)
    case 'tool_use':
      return estimateTextTokens(block.name) + estimateTextTokens(JSON.stringify(block.input))
    case 'tool_result': {
      let total = 0
      for (const part of block.content)
        total += part.type === 'text' ? estimateTextTokens(part.text) : MEDIA_TOKENS
      return total
    }
    default:
      return assertNever(block)
  }
}

/** Estimated tokens of one message. */
export function estimateMessageTokens(message: Message): number {
  let total = 0
  for (const block of message.content) total += estimateBlockTokens(block)
  return total
}

/** Estimated tokens of several messages. */
export function estimateMessagesTokens(messages: readonly Message[]): number {
  let total = 0
  for (const message of messages) total += estimateMessageTokens(message)
  return total
}

/** Estimated tokens of tool specs: each tool's name, description and input schema. */
export function estimateToolsTokens(tools: readonly ToolSpec[]): number {
  let total = 0
  for (const tool of tools) {
    total +=
      estimateTextTokens(tool.name) +
      estimateTextTokens(tool.description) +
      estimateTextTokens(JSON.stringify(tool.inputSchema))
  }
  return total
}

/** Estimated tokens of system sections. */
export function estimateSystemTokens(sections: readonly { text: string }[]): number {
  let total = 0
  for (const section of sections) total += estimateTextTokens(section.text)
  return total
}

function assertNever(value: never): never {
  throw new Error(`unhandled content block: ${JSON.stringify(value)}`)
}
