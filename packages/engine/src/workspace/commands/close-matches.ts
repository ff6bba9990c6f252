/** Up to `limit` names close to `input`: same prefix, containing it, or within a small edit distance. */
export function closeMatches(input: string, names: readonly string[], limit = 3): string[] {
  const needle = input.toLowerCase()
  const scored: Array<{ name: string; score: number }> = []
  for (const name of names) {
    const candidate = name.toLowerCase()
    const distance = editDistance(needle, candidate)
    const threshold = Math.max(1, Math.floor(Math.max(needle.length, candidate.length) / 3))
    let score: number | undefined
    if (candidate.startsWith(needle) || needle.startsWith(candidate)) score = 0.5
    else if (distance <= threshold) score = distance
    else if (needle.length >= 3 && candidate.includes(needle)) score = threshold + 1
    if (score !== undefined) scored.push({ name, score })
  }
  scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
  return scored.slice(0, limit).map((entry) => entry.name)
}

/** Levenshtein distance with adjacent transpositions counted as one edit. */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1
  const cols = b.length + 1
  const table: number[][] = Array.from({ length: rows }, (_, row) =>
    Array.from({ length: cols }, (_, col) => (row === 0 ? col : col === 0 ? row : 0)),
  )
  for (let row = 1; row < rows; row++) {
    for (let col = 1; col < cols; col++) {
      const cost = a[row - 1] === b[col - 1] ? 0 : 1
      let best = Math.min(
        table[row - 1]![col]! + 1,
        table[row]![col - 1]! + 1,
        table[row - 1]![col - 1]! + cost,
      )
      if (row > 1 && col > 1 && a[row - 1] === b[col - 2] && a[row - 2] === b[col - 1]) {
        best = Math.min(best, table[row - 2]![col - 2]! + 1)
      }
      table[row]![col] = best
    }
  }
  return table[a.length]![b.length]!
}
