import type { Route } from '@z-engine/protocol'
import type { ModelPort } from '../../model/model-port.js'
import type { DecisionHub } from '../hub.js'
import type { SeamSession } from '../seam-session.js'
import type { SeamInput } from '../seam-types.js'
import { isStronger, strongerModels } from './route-ladder.js'

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

/** What routing needs of its session: the seams' session and its models (which resolve, the ladder). */
export interface RouteSession extends SeamSession {
  readonly services: SeamSession['services'] & { readonly models: Pick<ModelPort, 'resolve' | 'routeLadder'> }
}

/** A turn or a launch to route: its prompt and model, whether that model is pinned, the agent if one. */
export interface RouteRequest {
  prompt: string
  modelRef: string
  /** The user's `/model` or a command's or definition's own model: only the effort may rise. */
  pinned: boolean
  agent?: SeamInput<'route'>['agent']
}

/**
 * Routes a main turn or a subagent launch: the stronger models it may be raised to (none when
 * pinned) and the effort it runs at go to `chooseRoute`; a route is announced with `routeChosen`
 * and returned as the model and effort to use. Undefined: it runs as configured.
 */
export async function routeRun(
  session: RouteSession,
  request: RouteRequest,
  signal: AbortSignal,
): Promise<{ modelRef?: string; effort?: Effort } | undefined> {
  const decisions = session.services.decisions
  if (!decisions?.joins('route')) return undefined
  const models = session.services.models
  const resolved = models.resolve(request.modelRef)
  const effort = resolved.ok ? resolved.model.reasoning?.effort : undefined
  const stronger = request.pinned
    ? []
    : strongerModels(request.modelRef, models.routeLadder?.() ?? [], (ref) => models.resolve(ref).ok)
  const route = await chooseRoute(
    decisions,
    {
      prompt: request.prompt,
      ...(request.agent !== undefined ? { agent: request.agent } : {}),
      model: request.modelRef,
      stronger,
      effort: effort === 'minimal' ? 'low' : effort,
    },
    signal,
  )
  if (route === undefined) return undefined
  session.publish({ type: 'routeChosen', route })
  return {
    ...(route.model !== undefined ? { modelRef: route.model } : {}),
    ...(route.effort !== undefined ? { effort: route.effort } : {}),
  }
}
