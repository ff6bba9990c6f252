import type { Message, ToolSpec } from '@z-engine/protocol'
import { MEDIA_TOKENS } from './limits.js'
import type { MeterReading } from './meter.js'
import { SYSTEM_SECTION_KINDS, type SystemSection, type SystemSectionKind } from './prompt/system.js'
import { estimateTextTokens, estimateToolsTokens } from './tokens.js'

/** A prompt layer shown by `/context`: each system layer, the tools, then the conversation's parts. */
export type ContextLayer =
  | SystemSectionKind
  | 'tools'
  /** User and assistant text, thinking included. */
  | 'conversation'
  | 'toolCalls'
  | 'toolResults'
  /** Images and other media blocks, in messages or tool results. */
  | 'media'

/** Every layer, in prompt order. */
export const LAYER_ORDER: readonly ContextLayer[] = [
  ...SYSTEM_SECTION_KINDS,
  'tools',
  'conversation',
  'toolCalls',
  'toolResults',
  'media',
]

/** The `/context` card: estimated tokens per layer, and how full the window is. */
export interface ContextBreakdown {
  windowTokens: number
  /** The meter's figure when given (it includes the provider's report), else the sum of the layers. */
  usedTokens: number
  freeTokens: number
  /** Used share of the window, 0–100, one decimal. */
  percent: number
  /** Layers in prompt order; layers with zero tokens are left out. */
  layers: { layer: ContextLayer; tokens: number }[]
}

/** Estimates the request's tokens by prompt layer for `/context`. */
export function contextBreakdown(input: {
  windowTokens: number
  system: readonly SystemSection[]
  tools: readonly ToolSpec[]
  messages: readonly Message[]
  /** The meter's reading for this request; without it the used figure is the layers' sum. */
  reading?: MeterReading
}): ContextBreakdown {
  const totals = new Map<ContextLayer, number>()
  const add = (layer: ContextLayer, tokens: number) => totals.set(layer, (totals.get(layer) ?? 0) + tokens)
  for (const section of input.system) add(section.kind, estimateTextTokens(section.text))
  add('tools', estimateToolsTokens(input.tools))
  for (const message of input.messages) {
    for (const block of message.content) {
      switch (block.type) {
        case 'text':
          add('conversation', estimateTextTokens(block.text))
          break
        case 'thinking':
          add('conversation', estimateTextTokens(block.thinking))
          break
        case 'redacted_thinking':
          add('conversation', estimateTextTokens(block.data))
          break
        case 'image':
          add('media', MEDIA_TOKENS)
          break
        case 'tool_use':
          add('toolCalls', estimateTextTokens(block.name) + estimateTextTokens(JSON.stringify(block.input)))
          break
        case 'tool_result':
          for (const part of block.content) {
            if (part.type === 'text') add('toolResults', estimateTextTokens(part.text))
            else add('media', MEDIA_TOKENS)
          }
          break
        default: {
          const unhandled: never = block
          throw new Error(`unhandled content block: ${JSON.stringify(unhandled)}`)
        }
      }
    }
  }
  const layers = LAYER_ORDER.filter((layer) => (totals.get(layer) ?? 0) > 0).map((layer) => ({
    layer,
    tokens: totals.get(layer) ?? 0,
  }))
  const sum = layers.reduce((total, entry) => total + entry.tokens, 0)
  const usedTokens = input.reading?.tokens ?? sum
  const windowTokens = Math.max(0, input.windowTokens)
  return {
    windowTokens,
    usedTokens,
    freeTokens: Math.max(0, windowTokens - usedTokens),
    percent: windowTokens === 0 ? 0 : Math.round((usedTokens / windowTokens) * 1000) / 10,
    layers,
  }
}
