import { marker, plural } from './gap-marker.js'
import { fitLines, type LineSelection } from './line-selection.js'

/** A line that reports a problem in a process log. */
export const ERROR_LINE =
  /\b(error|errors|fatal|panic|panicked|exception|traceback|failed|failure|segmentation fault|killed|denied|cannot|could not|unable to|not found|warning)\b|^E\s|ERR!/i

/** Where a stack trace starts; its lines up to the exception message are kept together. */
const TRACE_START = /^Traceback \(most recent call last\):/

/** Share of the budget for the first lines (how the command started). */
const HEAD_SHARE = 0.15
/** Share of the budget for the last lines (how it ended). */
const TAIL_SHARE = 0.35

/**
 * A process log: its head, its tail, and every error line with the line after it (and whole Python
 * tracebacks when they fit); what is left of the budget grows the tail, then the head.
 */
export function planLog(lines: readonly string[], budget: number): string {
  return fitLines(
    lines,
    budget,
    (selection) => {
      selection.takeHead(Math.floor(budget * HEAD_SHARE))
      selection.takeTail(Math.floor(budget * TAIL_SHARE))
      takeErrors(selection)
      selection.takeTail(selection.remaining)
      selection.takeHead(selection.remaining)
    },
    (from, to) => describeLogGap(lines, from, to),
  )
}

/** Keeps error lines: a traceback whole when it fits, else each error line and the one after it. */
export function takeErrors(selection: LineSelection, cap = Number.POSITIVE_INFINITY): number {
  const { lines } = selection
  let spent = 0
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!
    if (TRACE_START.test(line)) {
      let end = index + 1
      while (end < lines.length && /^\s/.test(lines[end]!)) end++
      const cost = selection.takeRange(index, end, cap - spent)
      if (cost !== undefined) {
        spent += cost
        index = end
        continue
      }
    }
    if (!ERROR_LINE.test(line)) continue
    const cost =
      selection.takeRange(index, index + 1, cap - spent) ?? selection.takeRange(index, index, cap - spent)
    if (cost !== undefined) spent += cost
  }
  return spent
}

/** `[... n lines omitted (k mention errors) ...]`. */
export function describeLogGap(lines: readonly string[], from: number, to: number): string {
  let errors = 0
  for (let index = from; index <= to; index++) if (ERROR_LINE.test(lines[index]!)) errors++
  const count = plural(to - from + 1, 'line')
  return marker(errors > 0 ? `${count} omitted, ${errors} of them mention errors` : `${count} omitted`)
}
