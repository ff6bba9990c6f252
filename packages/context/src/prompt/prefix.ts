import type { Message, ToolSpec } from '@z-engine/protocol'

/** What a request sends, as far as the cached prefix is concerned. */
export interface RequestPrefix {
  system: readonly { text: string; cacheable: boolean }[]
  tools: readonly ToolSpec[]
  messages: readonly Message[]
}

/**
 * Checks that `next` keeps `previous`'s cached prefix (spec 003 "Prompt caching"): the same system
 * sections and tool list byte for byte, and messages that extend the previous request's unchanged.
 * Across a compaction the messages may change; pass `compacted`. Returns one line per break, empty when stable.
 * Meant for tests of the request loop and for a debug check in the engine.
 */
export function prefixBreaks(previous: RequestPrefix, next: RequestPrefix, compacted = false): string[] {
  const breaks: string[] = []
  const cacheable = (system: RequestPrefix['system']) =>
    JSON.stringify(system.filter((section) => section.cacheable))
  if (cacheable(previous.system) !== cacheable(next.system))
    breaks.push('the cacheable system sections changed')
  if (JSON.stringify(previous.tools) !== JSON.stringify(next.tools)) breaks.push('the tool list changed')
  if (compacted) return breaks
  if (next.messages.length < previous.messages.length) {
    breaks.push(`the messages shrank from ${previous.messages.length} to ${next.messages.length}`)
    return breaks
  }
  for (let index = 0; index < previous.messages.length; index++) {
    if (JSON.stringify(previous.messages[index]) !== JSON.stringify(next.messages[index])) {
      breaks.push(`message ${index} (${previous.messages[index]?.id}) changed`)
      break
    }
  }
  return breaks
}
