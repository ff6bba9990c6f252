import { findModel } from '../../model/catalog.js'
import { parseModelRef } from '../../model/model-ref.js'

/**
 * How strong a model is, for the route seam: its catalog list price (output per million tokens,
 * then input). A model the catalog does not know has no rank, so it is never routed to or from.
 * Settings' price overrides are left out on purpose: they apply to every model alike.
 */
export function modelStrength(modelRef: string): readonly [number, number] | undefined {
  const parsed = parseModelRef(modelRef)
  if (!parsed.ok || parsed.ref.provider === 'scripted') return undefined
  const info = findModel(parsed.ref.model)
  if (info === undefined) return undefined
  const { outputPerMillion, inputPerMillion } = info.prices
  // Open-weight models have no list price: they cannot be ranked either.
  if (outputPerMillion === 0 && inputPerMillion === 0) return undefined
  return [outputPerMillion, inputPerMillion]
}

/** Whether `candidate` ranks strictly above `current` (both must be ranked). */
export function isStronger(candidate: string, current: string): boolean {
  const a = modelStrength(candidate)
  const b = modelStrength(current)
  if (a === undefined || b === undefined) return false
  return a[0] > b[0] || (a[0] === b[0] && a[1] > b[1])
}

/**
 * The models a turn or launch on `current` may be raised to: the configured ladder's models that
 * rank strictly above it and that the engine can reach (a client can be made: the provider is known
 * and has its credentials), weakest first, without duplicates.
 */
export function strongerModels(
  current: string,
  ladder: readonly (string | undefined)[],
  reachable: (modelRef: string) => boolean,
): string[] {
  const seen = new Set<string>()
  const found: string[] = []
  for (const candidate of ladder) {
    if (candidate === undefined || seen.has(candidate) || candidate === current) continue
    seen.add(candidate)
    if (isStronger(candidate, current) && reachable(candidate)) found.push(candidate)
  }
  return found.sort((a, b) => (isStronger(a, b) ? 1 : isStronger(b, a) ? -1 : 0))
}
