import type { Settings } from '@z-engine/protocol'

/**
 * The model reference a subagent runs with: `inherit` is the caller's, a role (`main`, `fast`,
 * `review`) reads settings (falling back to the caller's when unset), anything else is a model id.
 * The Agent call's `model` wins over the definition's.
 */
export function agentModelRef(
  requested: string | undefined,
  definitionModel: string,
  context: { callerModel: string; sessionModel: string; settings: Settings },
): string {
  const choice = requested ?? definitionModel
  switch (choice) {
    case 'inherit':
    case '':
      return context.callerModel
    case 'main':
      return context.sessionModel
    case 'fast':
      return context.settings.model.fast ?? context.callerModel
    case 'review':
      return context.settings.model.review ?? context.callerModel
    default:
      return choice
  }
}

/** Whether a model choice names a role (its model comes from settings) rather than an id. */
export function isModelRole(choice: string): boolean {
  return choice === 'main' || choice === 'fast' || choice === 'review'
}
