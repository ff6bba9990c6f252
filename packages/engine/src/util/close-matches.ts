import { distance as editDistance } from 'fastest-levenshtein'

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
