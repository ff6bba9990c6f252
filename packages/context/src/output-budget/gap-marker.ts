import { cutChars } from './line-selection.js'

/**
 * Marker text is cut here so a marker line (`[... text ...]` and its newline) never costs more
 * than GAP_MARKER_TOKENS.
 */
const MAX_MARKER_CHARS = 70

/** `[... what ...]`, kept short. */
export function marker(what: string): string {
  const text = what.length > MAX_MARKER_CHARS ? `${cutChars(what, MAX_MARKER_CHARS - 1)}…` : what
  return `[... ${text} ...]`
}

/** `1 line` / `n lines`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

/** The plain marker: how many lines were left out. */
export function linesOmitted(from: number, to: number): string {
  return marker(`${plural(to - from + 1, 'line')} omitted`)
}
