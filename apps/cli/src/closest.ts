import { distance as editDistance } from 'fastest-levenshtein'

/** The candidate closest to `input`, when it is close enough to be a plausible typo. */
export function closestMatch(input: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  for (const candidate of candidates) {
    const distance = candidate.startsWith(input) ? 0 : editDistance(input, candidate)
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return bestDistance <= Math.max(2, Math.floor(input.length / 2)) ? best : undefined
}
