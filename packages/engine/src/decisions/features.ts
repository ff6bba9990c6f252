/** A `decisions_*` switch in `[experimental]`. */
export type DecisionMode = 'off' | 'shadow' | 'on'

/** The `decisions_*` keys of `[experimental]` that name no registered use. */
export function unknownDecisionFeatures(
  experimental: Readonly<Record<string, unknown>>,
  known: readonly string[],
): string[] {
  return Object.keys(experimental).filter((key) => key.startsWith('decisions_') && !known.includes(key))
}

/** Whether any known feature is not off. */
export function anyDecisionFeature(
  experimental: Readonly<Record<string, DecisionMode>>,
  known: readonly string[],
): boolean {
  return known.some((feature) => (experimental[feature] ?? 'off') !== 'off')
}
