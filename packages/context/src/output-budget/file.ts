import { marker } from './gap-marker.js'
import { fitLines, GAP_MARKER_TOKENS, type LineSelection } from './line-selection.js'

/** `   12\t` — the line-number prefix Read puts on each line. */
const NUMBERED = /^\s*(\d+)\t/

/** A top-level (or one level in) definition or a Markdown heading: the file's outline. */
const OUTLINE =
  /^ {0,4}(export\s|pub\s|pub\(|async\s|def\s|class\s|function\s|interface\s|type\s|fn\s|impl[\s<]|struct\s|enum\s|trait\s|func\s|module\s|namespace\s|const\s+\w+\s*=\s*(async\s*)?\(|#{1,3}\s)/

/** Share of the budget for the top of the file; what is left goes to the outline, then the top again. */
const HEAD_SHARE = 0.6

/**
 * File contents: the top of the file, then the outline of the rest (definitions and headings, so
 * the model sees what is further down), then more of the top. Markers say which lines were left
 * out and the offset to read them from.
 */
export function planFile(lines: readonly string[], budget: number): string {
  return fitLines(
    lines,
    budget,
    (selection) => {
      selection.takeHead(Math.floor(budget * HEAD_SHARE))
      const outline: number[] = []
      for (let index = 0; index < lines.length; index++) {
        if (!selection.isKept(index) && OUTLINE.test(lines[index]!.replace(NUMBERED, ''))) outline.push(index)
      }
      selection.takeEach(spread(selection, outline))
      selection.takeHead(selection.remaining)
    },
    (from, to) => describeFileGap(lines, from, to),
  )
}

/**
 * As many outline lines as the rest of the budget affords, spread evenly over the file so its
 * bottom is outlined too.
 */
function spread(selection: LineSelection, outline: readonly number[]): number[] {
  if (outline.length === 0) return []
  const average = outline.reduce((sum, index) => sum + selection.costOf(index), 0) / outline.length
  const affordable = Math.floor(selection.remaining / (average + GAP_MARKER_TOKENS))
  if (affordable >= outline.length) return [...outline]
  if (affordable <= 0) return []
  const step = outline.length / affordable
  const picked: number[] = []
  for (let pick = 0; pick < affordable; pick++) picked.push(outline[Math.floor(pick * step)]!)
  return picked
}

function describeFileGap(lines: readonly string[], from: number, to: number): string {
  const first = NUMBERED.exec(lines[from]!)?.[1]
  const last = NUMBERED.exec(lines[to]!)?.[1]
  if (first !== undefined && last !== undefined)
    return marker(`lines ${first}-${last} omitted; Read with offset=${first} to see them`)
  return marker(`${to - from + 1} lines omitted (lines ${from + 1}-${to + 1} of this result)`)
}
