import type { SessionServices } from '../session/services.js'
import { SessionCore } from '../session/session-core.js'
import type { AssembleInput } from './assemble-input.js'
import { SessionModels } from './model-port.js'

/** The session's models: clients per reference, the main one already created (and warming) at open. */
export function openSessionModels(input: AssembleInput): SessionModels {
  const settings = input.loaded.settings
  const models = new SessionModels(input.clientFactory, () => settings, {
    sessionId: input.sessionId,
    projectRoot: input.projectRoot,
    injected: input.injectedFactory === true,
  })
  models.adopt(input.state.modelRef, input.client.client, input.client.model)
  return models
}

/**
 * The session's core over its services, with the limits the opening settings set: everything that
 * works for the session takes the core, not the handle.
 */
export function openSessionCore(input: AssembleInput, services: SessionServices): SessionCore {
  const settings = input.loaded.settings
  return new SessionCore({
    id: input.sessionId,
    projectRoot: input.projectRoot,
    ...(input.cwd !== undefined ? { cwd: input.cwd } : {}),
    state: input.state,
    services,
    hub: input.hub,
    limits: {
      maxTurns: settings.agents.max_turns,
      costCapUsd: settings.agents.session_cost_cap_usd,
      maxOutputTokens: settings.model.max_output_tokens ?? 32_000,
      maxConcurrency: settings.agents.max_concurrent,
    },
    newId: input.newId,
  })
}
