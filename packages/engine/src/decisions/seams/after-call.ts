import { wrapReminder } from '@z-engine/prompts'
import type { DecisionHub } from '../hub.js'

/** Results at least this long are offered to the relevance seam. */
export const RELEVANCE_MIN_CHARS = 8_000

/**
 * After a call (and, for a long result, relevance): notes to put ahead of the result, as reminders.
 * A cancelled call is never consulted (the caller skips it).
 */
export async function notesForResult(
  hub: DecisionHub | undefined,
  call: { toolName: string; input: Record<string, unknown>; resultText: string; isError: boolean },
  signal: AbortSignal,
): Promise<string[]> {
  if (hub === undefined) return []
  const [after, relevant] = await Promise.all([
    hub.joins('afterCall') ? hub.consult('afterCall', call, signal) : [],
    hub.joins('relevance') && call.resultText.length >= RELEVANCE_MIN_CHARS
      ? hub.consult(
          'relevance',
          { toolName: call.toolName, input: call.input, resultText: call.resultText },
          signal,
        )
      : [],
  ])
  const notes = after.flatMap((one) => one.notes)
  const ranges = relevant.flatMap((one) => one.ranges)
  if (ranges.length > 0)
    notes.push(
      `The parts of this result that matter: ${ranges.map((range) => `lines ${range.from}–${range.to} (${range.why})`).join('; ')}.`,
    )
  return notes.map((note) => wrapReminder(note))
}
