import { estimateTextTokens } from '../tokens.js'
import { linesOmitted, marker, plural } from './gap-marker.js'
import { cutChars, fitLines, GAP_MARKER_TOKENS } from './line-selection.js'

/** Head/tail for a result without a declared category: half the budget each way, whole lines. */
export function planFallback(lines: readonly string[], budget: number): string {
  return fitLines(
    lines,
    budget,
    (selection) => {
      selection.takeHead(Math.floor(budget / 2))
      selection.takeTail(selection.remaining)
    },
    linesOmitted,
  )
}

/**
 * The last resort when no whole line fits (one giant line): a head and a tail cut by characters,
 * never inside a surrogate pair, each within half the budget.
 */
export function cutByCharacters(text: string, budget: number): string {
  const half = Math.max(0, Math.floor((budget - GAP_MARKER_TOKENS) / 2))
  let chars = half * 4
  let head = cutChars(text, chars)
  // Non-ASCII text costs more per character: shrink until the estimate fits.
  while (chars > 0 && estimateTextTokens(head) > half) {
    chars = Math.floor(chars / 2)
    head = cutChars(text, chars)
  }
  let tail = tailChars(text, chars)
  while (tail.length > 0 && estimateTextTokens(tail) > half)
    tail = tailChars(text, Math.floor(tail.length / 2))
  const omitted = text.length - head.length - tail.length
  if (omitted <= 0) return text
  return `${head}\n${marker(`${plural(omitted, 'character')} omitted`)}\n${tail}`
}

/** The last `max` UTF-16 units of `text`, never starting inside a surrogate pair. */
function tailChars(text: string, max: number): string {
  let start = Math.max(0, text.length - max)
  const code = text.charCodeAt(start)
  if (start > 0 && code >= 0xdc00 && code <= 0xdfff) start += 1
  return text.slice(start)
}
