import { linesOmitted } from './gap-marker.js'
import { fitLines } from './line-selection.js'

/** A Markdown heading, list item or table row: the report's structure. */
const STRUCTURE = /^\s*(#{1,6}\s|[-*+]\s|\d+[.)]\s|\|)/

/** Shares of the budget for a report's end (its conclusion and footer) and its opening. */
const TAIL_SHARE = 0.35
const HEAD_SHARE = 0.25

/**
 * A worker's conclusion (a subagent's final report): its end (the conclusion, usage and changed
 * files), its opening, then its headings and list items, then more of the opening.
 */
export function planConclusion(lines: readonly string[], budget: number): string {
  return fitLines(
    lines,
    budget,
    (selection) => {
      selection.takeTail(Math.floor(budget * TAIL_SHARE))
      selection.takeHead(Math.floor(budget * HEAD_SHARE))
      const structure: number[] = []
      for (let index = 0; index < lines.length; index++)
        if (STRUCTURE.test(lines[index]!)) structure.push(index)
      selection.takeEach(structure)
      selection.takeHead(selection.remaining)
    },
    linesOmitted,
  )
}
