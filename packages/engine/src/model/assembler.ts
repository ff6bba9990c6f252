/**
 * Builds the assistant message from an adapter's events, so every adapter reports the same content
 * blocks in the same order (by block index) and the `message_end` event is assembled in one place.
 */
import type { ContentBlock, ThinkingBlock, Usage } from '@z-engine/protocol'
import type { StreamEvent, ToolCallError } from './types.js'

/** What an assembled block looks like while it is being built. */
type Slot = ContentBlock

/** Accumulates complete blocks from `*_end` events; deltas are ignored (the end events carry the whole block). */
export class MessageAssembler {
  private readonly slots = new Map<number, Slot>()
  private readonly errors: ToolCallError[] = []
  usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }

  /** Records one event; only end events and usage change the message. */
  add(event: StreamEvent): void {
    switch (event.type) {
      case 'text_end':
        this.slots.set(event.index, { type: 'text', text: event.text })
        return
      case 'thinking_end': {
        const block: ThinkingBlock = { type: 'thinking', thinking: event.thinking }
        if (event.signature !== undefined) block.signature = event.signature
        if (event.encrypted !== undefined) block.encrypted = event.encrypted
        this.slots.set(event.index, block)
        return
      }
      case 'redacted_thinking':
        this.slots.set(event.index, { type: 'redacted_thinking', data: event.data })
        return
      case 'tool_call_end':
        this.slots.set(event.index, { type: 'tool_use', id: event.id, name: event.name, input: event.input })
        if (event.parseError !== undefined) {
          this.errors.push({
            id: event.id,
            name: event.name,
            argsText: event.argsText,
            message: event.parseError,
          })
        }
        return
      case 'usage':
        this.usage = event.usage
        return
      case 'text_start':
      case 'text_delta':
      case 'thinking_start':
      case 'thinking_delta':
      case 'tool_call_start':
      case 'tool_call_args_delta':
      case 'message_end':
      case 'retrying':
      case 'error':
        return
      default: {
        const unreachable: never = event
        throw new Error(`unknown stream event ${JSON.stringify(unreachable)}`)
      }
    }
  }

  /** The blocks in index order. Empty text blocks are dropped (providers reject them on resend). */
  content(): ContentBlock[] {
    return [...this.slots.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, block]) => block)
      .filter((block) => !(block.type === 'text' && block.text === ''))
  }

  /** Tool calls whose arguments failed to parse. */
  toolCallErrors(): ToolCallError[] {
    return [...this.errors]
  }

  /** True when any tool call was assembled (used to correct servers that say `stop` after tool calls). */
  hasToolCalls(): boolean {
    return [...this.slots.values()].some((block) => block.type === 'tool_use')
  }
}
