import type { Route } from '@z-engine/protocol'
import type { DecisionHub } from '../hub.js'
import type { SeamInput } from '../seam-types.js'
import { isStronger } from './route-ladder.js'

type Effort = 'low' | 'medium' | 'high' | 'max'
const RANK: Record<Effort, number> = { low: 0, medium: 1, high: 2, max: 3 }

/**
 * Route (spec 000: turn start and subagent launch): the effort and model a turn or a launched agent
 * runs at, only within what the task allows and only upward. Effort moves only on a model that
 * reasons (`effort` given) and only above it; the model moves only to one of `stronger` (configured,
 * reachable, ranked above by the catalog) — advice naming any other model, or a weaker one, is
 * ignored. Returns the route to announce (`routeChosen`), or undefined when nothing changes.
 */
export async function chooseRoute(
  hub: DecisionHub | undefined,
  input: SeamInput<'route'>,
  signal: AbortSignal,
): Promise<Route | undefined> {
  if (!hub?.joins('route')) return undefined
  if (input.effort === undefined && input.stronger.length === 0) return undefined
  const advice = await hub.consult('route', input, signal)
  let effort: Effort | undefined
  let model: string | undefined
  let reason: string | undefined
  for (const one of advice) {
    if (
      input.effort !== undefined &&
      one.effort !== undefined &&
      RANK[one.effort] > RANK[effort ?? input.effort]
    ) {
      effort = one.effort
      reason = one.reason
    }
    if (
      one.model !== undefined &&
      input.stronger.includes(one.model) &&
      isStronger(one.model, model ?? input.model)
    ) {
      model = one.model
      reason = one.reason
    }
  }
  if (reason === undefined) return undefined
  return {
    reason,
    ...(model !== undefined ? { model } : {}),
    ...(effort !== undefined ? { effort } : {}),
    ...(input.agent !== undefined ? { agentId: input.agent.id } : {}),
  }
}
