import { estimateTextTokens } from '../tokens.js'

/** A kept line longer than this is cut (a minified bundle or a JSON blob on one line). */
export const MAX_KEPT_LINE_CHARS = 2_000

/** What one omission marker line costs in the budget (its text stays short). */
export const GAP_MARKER_TOKENS = 21

/**
 * Which lines of a text are kept within an estimated-token budget. Every run of left-out lines
 * becomes one marker line, whose cost is counted as lines are taken, so the rendered text stays
 * within the budget.
 */
export class LineSelection {
  readonly lines: readonly string[]
  #budget: number
  readonly #kept: Uint8Array
  readonly #costs: number[]
  #used: number

  constructor(lines: readonly string[], budget: number) {
    this.lines = lines
    this.#budget = budget
    this.#kept = new Uint8Array(lines.length)
    this.#costs = lines.map((line) => estimateTextTokens(`${shownLine(line)}\n`))
    // Nothing kept yet: the whole text is one omission.
    this.#used = lines.length > 0 ? GAP_MARKER_TOKENS : 0
  }

  /** The budget in tokens. */
  get budget(): number {
    return this.#budget
  }

  /** Tokens left. */
  get remaining(): number {
    return this.#budget - this.#used
  }

  /** Raises the budget (markers were counted at their most; the rendered text had room left). */
  grant(tokens: number): void {
    this.#budget += tokens
  }

  /** Whether line `index` is kept. */
  isKept(index: number): boolean {
    return this.#kept[index] === 1
  }

  /** What keeping line `index` costs, without its marker. */
  costOf(index: number): number {
    return this.#costs[index]!
  }

  /** Number of kept lines. */
  keptCount(): number {
    let count = 0
    for (const flag of this.#kept) count += flag
    return count
  }

  /**
   * Keeps lines `from`..`to` (inclusive) when all of them fit in the budget and in `cap` tokens;
   * returns the tokens spent (0 when already kept; less than nothing when the lines join two omissions)
   * or undefined when they do not fit.
   */
  takeRange(from: number, to: number, cap = Number.POSITIVE_INFINITY): number | undefined {
    const first = Math.max(0, from)
    const last = Math.min(this.lines.length - 1, to)
    if (first > last) return 0
    const added: number[] = []
    let cost = 0
    for (let index = first; index <= last; index++) {
      if (this.isKept(index)) continue
      added.push(index)
      cost += this.#costs[index]!
    }
    if (added.length === 0) return 0
    const before = this.#gapsAround(first, last)
    for (const index of added) this.#kept[index] = 1
    cost += (this.#gapsAround(first, last) - before) * GAP_MARKER_TOKENS
    if (cost > Math.min(this.remaining, cap)) {
      for (const index of added) this.#kept[index] = 0
      return undefined
    }
    this.#used += cost
    return cost
  }

  /** Keeps lines from the top while they fit in `cap`; returns the tokens spent. */
  takeHead(cap: number): number {
    let spent = 0
    for (let index = 0; index < this.lines.length; index++) {
      if (this.isKept(index)) continue
      const cost = this.takeRange(index, index, cap - spent)
      if (cost === undefined) break
      spent += cost
    }
    return spent
  }

  /** Keeps lines from the bottom while they fit in `cap`; returns the tokens spent. */
  takeTail(cap: number): number {
    let spent = 0
    for (let index = this.lines.length - 1; index >= 0; index--) {
      if (this.isKept(index)) continue
      const cost = this.takeRange(index, index, cap - spent)
      if (cost === undefined) break
      spent += cost
    }
    return spent
  }

  /** Keeps each of `indexes` that fits (in order, skipping ones that do not); returns tokens spent. */
  takeEach(indexes: Iterable<number>, cap = Number.POSITIVE_INFINITY): number {
    let spent = 0
    for (const index of indexes) {
      const cost = this.takeRange(index, index, cap - spent)
      if (cost !== undefined) spent += cost
    }
    return spent
  }

  /** The kept lines in order, each run of left-out lines replaced by `describeGap(from, to)`. */
  render(describeGap: (from: number, to: number) => string): string {
    const out: string[] = []
    let gapStart = -1
    for (let index = 0; index <= this.lines.length; index++) {
      const kept = index < this.lines.length && this.isKept(index)
      if (!kept && index < this.lines.length) {
        if (gapStart < 0) gapStart = index
        continue
      }
      if (gapStart >= 0) {
        out.push(describeGap(gapStart, index - 1))
        gapStart = -1
      }
      if (kept) out.push(shownLine(this.lines[index]!))
    }
    return out.join('\n')
  }

  /** Runs of left-out lines that touch the window `from - 1`..`to + 1`. */
  #gapsAround(from: number, to: number): number {
    const start = Math.max(0, from - 1)
    const end = Math.min(this.lines.length - 1, to + 1)
    let runs = 0
    let inRun = false
    for (let index = start; index <= end; index++) {
      const out = !this.isKept(index)
      if (out && !inRun) runs++
      inRun = out
    }
    return runs
  }
}

/** A line as shown: cut at {@link MAX_KEPT_LINE_CHARS} without splitting a surrogate pair. */
export function shownLine(line: string): string {
  if (line.length <= MAX_KEPT_LINE_CHARS) return line
  const cut = cutChars(line, MAX_KEPT_LINE_CHARS)
  return `${cut} [... ${line.length - cut.length} more characters]`
}

/** The first `max` UTF-16 units of `text`, never ending inside a surrogate pair. */
export function cutChars(text: string, max: number): string {
  let end = Math.min(Math.max(0, max), text.length)
  const code = text.charCodeAt(end - 1)
  if (end > 0 && code >= 0xd800 && code <= 0xdbff) end -= 1
  return text.slice(0, end)
}

/** Passes of {@link fitLines} after the first: each spends what the markers did not use. */
const REFILL_PASSES = 3

/**
 * Runs `select` (a category's keep order) over `lines` within `budget` and renders the result.
 * Markers are charged at their most while selecting, so when the rendered text has room left the
 * selection is granted it and `select` runs again, as long as the result still fits.
 */
export function fitLines(
  lines: readonly string[],
  budget: number,
  select: (selection: LineSelection) => void,
  describeGap: (from: number, to: number) => string,
): string {
  const selection = new LineSelection(lines, budget)
  select(selection)
  let best = selection.render(describeGap)
  for (let pass = 0; pass < REFILL_PASSES; pass++) {
    const slack = budget - estimateTextTokens(best)
    if (slack < GAP_MARKER_TOKENS) break
    selection.grant(slack)
    select(selection)
    const next = selection.render(describeGap)
    if (estimateTextTokens(next) > budget) break
    best = next
  }
  return best
}
