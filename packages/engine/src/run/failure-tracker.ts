import { reminderText, wrapReminder } from '@z-engine/prompts'
import type { ToolResultBlock, ToolSpec, ToolStatus, ToolUseBlock } from '@z-engine/protocol'

/**
 * The number of times the same call (same tool, same input) may fail in a row before the model is
 * told it is repeating itself (spec 004 "Agent Loop": repeated failures). The second identical
 * failure is already a loop: nothing about the call changed, so neither will its result.
 */
export const REPEATED_FAILURE_THRESHOLD = 2

/** Characters of malformed arguments quoted back in a repair message. */
const QUOTED_ARGS_CHARS = 400

/** One finished call as the tracker sees it. */
export interface TrackedCall {
  block: ToolUseBlock
  /** Present when the call's arguments were not a JSON object. */
  parseError?: string
  /** The raw arguments text, when the model's JSON did not parse. */
  argsText?: string
  status: ToolStatus
  result: ToolResultBlock
}

/** What the tracker adds to one batch's user message. */
export interface TrackedBatch {
  /** The results, in call order; a first malformed call's result is replaced by a repair message. */
  results: ToolResultBlock[]
  /** Reminders about calls repeated after failing (wrapped, ready to append). */
  reminders: string[]
}

/**
 * Tracks failing tool calls across one agent run (pure: no I/O). A call is identified by its tool
 * and canonical input; failing again with nothing changed earns a reminder at the threshold and on
 * every repeat after it, and a success of the same call clears its count. Malformed argument JSON
 * first gets one repair message per tool (what was received, what the schema requires) and does
 * not count; a later malformed call to that tool counts as an ordinary failure.
 */
export class FailureTracker {
  readonly #failures = new Map<string, number>()
  readonly #repairOffered = new Set<string>()

  /** Looks at one batch's calls and results; returns the results to send and any reminders. */
  observe(calls: readonly TrackedCall[], tools: readonly ToolSpec[]): TrackedBatch {
    const results: ToolResultBlock[] = []
    const reminders: string[] = []
    for (const call of calls) {
      if (call.parseError !== undefined && !this.#repairOffered.has(call.block.name)) {
        this.#repairOffered.add(call.block.name)
        results.push(repairResult(call, tools))
        continue
      }
      results.push(call.result)
      const key = callKey(call)
      if (call.status === 'ok') {
        this.#failures.delete(key)
        continue
      }
      if (call.status === 'cancelled') continue
      const count = (this.#failures.get(key) ?? 0) + 1
      this.#failures.set(key, count)
      if (count >= REPEATED_FAILURE_THRESHOLD) {
        reminders.push(
          wrapReminder(
            reminderText('repeatedFailure', {
              tool: call.block.name,
              count: String(count),
              error: firstLine(resultText(call.result)),
            }),
          ),
        )
      }
    }
    return { results, reminders }
  }
}

/** The identity of a call: its tool and its input with object keys sorted (or the raw malformed text). */
export function callKey(call: Pick<TrackedCall, 'block' | 'parseError' | 'argsText'>): string {
  const input = call.parseError !== undefined ? `raw:${call.argsText ?? ''}` : canonicalJson(call.block.input)
  return `${call.block.name}\u0000${input}`
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    )
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'undefined'
}

function resultText(result: ToolResultBlock): string {
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n')
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? ''
  return line.length > 300 ? `${line.slice(0, 300)}…` : line
}

/** The repair message for a call whose arguments were not a JSON object. */
function repairResult(call: TrackedCall, tools: readonly ToolSpec[]): ToolResultBlock {
  const spec = tools.find((tool) => tool.name === call.block.name)
  const schema = spec?.inputSchema as
    | { properties?: Record<string, unknown>; required?: string[] }
    | undefined
  const required = schema?.required ?? []
  const known = Object.keys(schema?.properties ?? {})
  const raw = call.argsText ?? ''
  const quoted = raw.length > QUOTED_ARGS_CHARS ? `${raw.slice(0, QUOTED_ARGS_CHARS)}…` : raw
  const lines = [
    `Error: the arguments for ${call.block.name} were not a valid JSON object (${call.parseError}), so the call did not run.`,
    `Received: ${quoted === '' ? '(nothing)' : quoted}`,
    ...(known.length > 0
      ? [
          `Expected a JSON object with ${required.length > 0 ? `required fields ${required.join(', ')}` : 'no required fields'}; known fields: ${known.join(', ')}.`,
        ]
      : []),
    'Send the call again with the whole arguments as one JSON object: quote every string, escape newlines and quotes inside strings, and close every brace.',
  ]
  return {
    type: 'tool_result',
    toolUseId: call.block.id,
    content: [{ type: 'text', text: lines.join('\n') }],
    isError: true,
  }
}
