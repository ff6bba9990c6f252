/**
 * Finds where in a file a failed `old_string` most likely meant, so the error can show the real
 * text and the model can copy it exactly instead of guessing again.
 */

/** The best window of lines for a search text. */
export interface ClosestMatch {
  /** 1-based first and last line. */
  startLine: number
  endLine: number
  /** 0 … 1; 1 means equal after trimming each line. */
  score: number
  /** The window equals the search text except for whitespace. */
  whitespaceOnly: boolean
}

/** Work (line comparisons) spent at most before falling back to first-line anchoring. */
const MAX_COMPARISONS = 400_000

/** The window of `fileText` lines most similar to `searchText`, or undefined when nothing is close. */
export function closestLines(fileText: string, searchText: string): ClosestMatch | undefined {
  const fileLines = fileText.split('\n').map((line) => line.replace(/\r$/, ''))
  const wanted = searchText.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n')
  const window = wanted.length
  if (window === 0 || fileLines.length === 0) return undefined
  const wantedTrimmed = wanted.map((line) => line.trim())
  const candidates = fileLines.length - Math.min(window, fileLines.length) + 1
  const fullScan = candidates * window <= MAX_COMPARISONS
  let best: ClosestMatch | undefined
  for (let start = 0; start < candidates; start += 1) {
    // On huge inputs only windows whose first line resembles the search's first line are scored.
    if (!fullScan && similarity(fileLines[start]!.trim(), wantedTrimmed[0]!) < 0.5) continue
    let total = 0
    let count = 0
    for (let offset = 0; offset < window && start + offset < fileLines.length; offset += 1) {
      total += similarity(fileLines[start + offset]!.trim(), wantedTrimmed[offset]!)
      count += 1
    }
    const score = total / window
    if (!best || score > best.score) {
      const end = Math.min(start + window, fileLines.length)
      best = {
        startLine: start + 1,
        endLine: end,
        score,
        whitespaceOnly:
          fileLines.slice(start, end).join('\n') !== wanted.join('\n') && score === 1 && count === window,
      }
    }
  }
  return best && best.score >= 0.4 ? best : undefined
}

/** Dice similarity of character bigrams; 1 for equal strings. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1
  if (a.length < 2 || b.length < 2) return 0
  const counts = new Map<string, number>()
  for (let index = 0; index < a.length - 1; index += 1) {
    const gram = a.slice(index, index + 2)
    counts.set(gram, (counts.get(gram) ?? 0) + 1)
  }
  let shared = 0
  for (let index = 0; index < b.length - 1; index += 1) {
    const gram = b.slice(index, index + 2)
    const count = counts.get(gram) ?? 0
    if (count > 0) {
      shared += 1
      counts.set(gram, count - 1)
    }
  }
  return (2 * shared) / (a.length + b.length - 2)
}
