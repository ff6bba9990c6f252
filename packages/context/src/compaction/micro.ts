import type { Message, ToolResultBlock } from '@z-engine/protocol'
import { DEFAULT_KEEP_RECENT_TOOL_RESULTS, MICRO_CLEAR_AT_PERCENT, MICRO_CLEAR_MIN_CHARS } from '../limits.js'
import { estimateTextTokens } from '../tokens.js'
import { SKILL_TOOL_NAME } from './skills.js'

/** One tool result to clear: where it is and the original text to spill to an artifact. */
export interface PlannedClear {
  messageIndex: number
  blockIndex: number
  messageId: string
  toolUseId: string
  /** The tool that produced it (from the matching tool_use), or `tool` when the call is not found. */
  toolName: string
  /** Characters of text in the result. */
  chars: number
  /** The result's text parts joined by newlines: what the artifact must hold. */
  original: string
  /** Estimated tokens saved once the result is a marker (before the marker's own few tokens). */
  tokens: number
}

/** The tool results to clear this round (empty when under half the window). */
export interface MicroClearPlan {
  clears: PlannedClear[]
  /** Sum of the clears' `tokens`. */
  savedTokens: number
}

/** Inputs of {@link planMicroClear}. */
export interface MicroClearInput {
  messages: readonly Message[]
  /** The meter's tokens for the request about to be sent. */
  usedTokens: number
  windowTokens: number
  /** `context.keep_recent_tool_results` (default 8): the newest large results kept word for word. */
  keepRecent?: number
  /** Results shorter than this are left alone (default 1,000 characters). */
  minChars?: number
  /** Plan even under half the window (the provider said the request is too long). */
  force?: boolean
}

const MARKER_PREFIX = '[cleared'

/** Whether a tool result already is a `[cleared …]` marker. */
export function isClearedResult(block: ToolResultBlock): boolean {
  const first = block.content[0]
  return block.content.length === 1 && first?.type === 'text' && first.text.startsWith(MARKER_PREFIX)
}

/**
 * Plans clearing old tool results (spec 003 "Compaction", step 1): above half the window, every tool
 * result of at least `minChars` characters except the newest `keepRecent` such results becomes a
 * marker. Results already cleared are not counted, and Skill results (instructions) are never cleared.
 * Pure; the engine spills and applies.
 */
export function planMicroClear(input: MicroClearInput): MicroClearPlan {
  const keepRecent = Math.max(0, input.keepRecent ?? DEFAULT_KEEP_RECENT_TOOL_RESULTS)
  const minChars = input.minChars ?? MICRO_CLEAR_MIN_CHARS
  const over = input.usedTokens * 100 > input.windowTokens * MICRO_CLEAR_AT_PERCENT
  if (!input.force && !over) return { clears: [], savedTokens: 0 }

  const toolNames = new Map<string, string>()
  const large: PlannedClear[] = []
  input.messages.forEach((message, messageIndex) => {
    message.content.forEach((block, blockIndex) => {
      if (block.type === 'tool_use') toolNames.set(block.id, block.name)
      if (block.type !== 'tool_result' || isClearedResult(block)) return
      // A loaded skill is instructions the agent keeps following, not a printout: never cleared.
      if (toolNames.get(block.toolUseId) === SKILL_TOOL_NAME) return
      const texts = block.content.flatMap((part) => (part.type === 'text' ? [part.text] : []))
      const chars = texts.reduce((total, text) => total + text.length, 0)
      if (chars < minChars) return
      const original = texts.join('\n')
      large.push({
        messageIndex,
        blockIndex,
        messageId: message.id,
        toolUseId: block.toolUseId,
        toolName: '',
        chars,
        original,
        tokens: estimateTextTokens(original),
      })
    })
  })
  const clears = large.slice(0, Math.max(0, large.length - keepRecent))
  for (const clear of clears) clear.toolName = toolNames.get(clear.toolUseId) ?? 'tool'
  return { clears, savedTokens: clears.reduce((total, clear) => total + clear.tokens, 0) }
}

/** The marker a cleared result becomes; it names the artifact holding the original. */
export function clearedMarker(clear: { toolName: string; chars: number }, artifact: string): string {
  return `${MARKER_PREFIX}: ${clear.chars} characters of ${clear.toolName} output, saved to ${artifact}; read that file if you need it again]`
}

/**
 * Applies clears to messages, returning new messages (inputs untouched). Each cleared result keeps
 * its id, error flag and any images; its text becomes the marker, so every call keeps its result.
 */
export function applyMicroClear(
  messages: readonly Message[],
  clears: readonly { messageIndex: number; blockIndex: number; marker: string }[],
): Message[] {
  const result = messages.slice()
  for (const clear of clears) {
    const message = result[clear.messageIndex]
    const block = message?.content[clear.blockIndex]
    if (!message || block?.type !== 'tool_result') continue
    const content = message.content.slice()
    content[clear.blockIndex] = {
      ...block,
      content: [
        { type: 'text', text: clear.marker },
        ...block.content.filter((part) => part.type !== 'text'),
      ],
    }
    result[clear.messageIndex] = { ...message, content }
  }
  return result
}
