/**
 * Generated transcripts for the planner tests and benchmarks: real turns, long agentic turns and
 * parallel tool calls, with ids that say where each message came from.
 */
import type { Message } from '@z-engine/protocol'

/** Builds messages with unique ids. */
export class TranscriptBuilder {
  private next = 0
  readonly messages: Message[] = []

  private id(prefix: string): string {
    this.next++
    return `${prefix}${this.next}`
  }

  /** A real user turn start. */
  user(text = 'please do the thing'): this {
    this.messages.push({ id: this.id('u'), role: 'user', content: [{ type: 'text', text }] })
    return this
  }

  /** An assistant message with `calls` parallel tool calls (0: a final text answer). */
  assistant(calls = 0, text = 'working on it'): string[] {
    const ids = Array.from({ length: calls }, () => this.id('call'))
    this.messages.push({
      id: this.id('a'),
      role: 'assistant',
      content: [
        { type: 'text', text },
        ...ids.map((id) => ({
          type: 'tool_use' as const,
          id,
          name: 'Read',
          input: { path: `src/${id}.ts` },
        })),
      ],
    })
    return ids
  }

  /** The one user message holding every result of a round, in call order. */
  results(ids: readonly string[], chars = 200): this {
    this.messages.push({
      id: this.id('r'),
      role: 'user',
      content: ids.map((toolUseId) => ({
        type: 'tool_result' as const,
        toolUseId,
        content: [{ type: 'text' as const, text: 'x'.repeat(chars) }],
        isError: false,
      })),
    })
    return this
  }

  /** One agentic turn: a prompt, `rounds` tool rounds of `parallel` calls each, a final answer. */
  turn(rounds: number, options: { parallel?: number; resultChars?: number; prompt?: string } = {}): this {
    this.user(options.prompt)
    for (let round = 0; round < rounds; round++) {
      this.results(this.assistant(options.parallel ?? 1), options.resultChars)
    }
    this.assistant(0, 'done')
    return this
  }
}

/** A transcript of `turns` turns of `rounds` rounds each. */
export function generateTranscript(
  turns: number,
  rounds: number,
  options: { parallel?: number; resultChars?: number } = {},
): Message[] {
  const builder = new TranscriptBuilder()
  for (let turn = 0; turn < turns; turn++) builder.turn(rounds, options)
  return builder.messages
}
