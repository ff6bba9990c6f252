import type { Route } from '@z-engine/protocol'
import type { DecisionHub } from '../hub.js'

type Effort = 'low' | 'medium' | 'high' | 'max'
const RANK: Record<Effort, number> = { low: 0, medium: 1, high: 2, max: 3 }

/**
 * Route: the effort a turn runs at. Only within what the task allows — a model with reasoning
 * configured — and only upward: advice below the configured effort is ignored. The last on use that
 * raises it wins. Returns the route to announce (`routeChosen`), or undefined.
 */
export async function routeTurn(
  hub: DecisionHub | undefined,
  prompt: string,
  current: Effort | undefined,
  signal: AbortSignal,
): Promise<(Route & { effort: Effort }) | undefined> {
  if (!hub?.joins('route') || current === undefined) return undefined
  const advice = await hub.consult('route', { prompt, effort: current, reasoning: true }, signal)
  let chosen: (Route & { effort: Effort }) | undefined
  for (const one of advice) {
    if (RANK[one.effort] > RANK[chosen?.effort ?? current])
      chosen = { effort: one.effort, reason: one.reason }
  }
  return chosen
}
