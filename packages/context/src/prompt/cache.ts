import type { Message } from '@z-engine/protocol'

/**
 * Where cache breakpoints go on one request (spec 003 "Prompt caching"): the last cacheable system
 * section, the tool list, and the last two user messages (tool-result rounds included). The newest
 * writes the cache for the next request; the one before reads what the previous request wrote.
 */
export interface BreakpointPlan {
  /** Index of the last cacheable system section, or null when none is cacheable. */
  systemIndex: number | null
  /** Whether the tool list carries a breakpoint (on its last tool). */
  tools: boolean
  /** Indices into the messages of the (at most two) user messages carrying one, ascending. */
  messageIndices: number[]
}

/** Plans the cache breakpoints of a request. */
export function planBreakpoints(input: {
  system: readonly { cacheable: boolean }[]
  toolCount: number
  messages: readonly Message[]
}): BreakpointPlan {
  let systemIndex: number | null = null
  for (let i = input.system.length - 1; i >= 0; i--) {
    if (input.system[i]?.cacheable) {
      systemIndex = i
      break
    }
  }
  const messageIndices: number[] = []
  for (let i = input.messages.length - 1; i >= 0 && messageIndices.length < 2; i--) {
    if (input.messages[i]?.role === 'user') messageIndices.unshift(i)
  }
  return { systemIndex, tools: input.toolCount > 0, messageIndices }
}
