import type { Settings } from '@z-engine/protocol'
import { resolveModelAlias } from '../model/aliases.js'
import { parseModelRef } from '../model/model-ref.js'

/**
 * The model reference a subagent runs with: `inherit` is the caller's, a role (`main`, `fast`,
 * `review`) reads settings (falling back to the caller's when unset), Claude Code's aliases (`sonnet`,
 * `opus`, `haiku`) name the catalog's current model of that family on the caller's provider (through
 * OpenRouter when the caller uses it), anything else is a model id. The Agent call's `model` wins
 * over the definition's.
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
    default: {
      const alias = resolveModelAlias(choice)
      return alias === undefined ? choice : aliasOnProvider(alias, context.callerModel)
    }
  }
}

/** An alias's Anthropic model on the caller's provider: OpenRouter spells it `anthropic/<id with dots>`. */
function aliasOnProvider(model: string, callerModel: string): string {
  const caller = parseModelRef(callerModel)
  if (caller.ok && caller.ref.provider === 'openrouter')
    return `openrouter/anthropic/${model.replace(/-(\d+)-(\d+)$/, '-$1.$2')}`
  return `anthropic/${model}`
}

/**
 * Whether the route seam must leave a subagent's model alone (docs/decisions.md "Route"): a model id,
 * an alias (`haiku`) or the `review` role was chosen on purpose and is pinned; `inherit` (or unset)
 * is pinned exactly when the caller's model is, `main` when the session's is (the user's `/model`);
 * the `fast` role may be raised along the configured models (when `model.fast` is unset it runs on
 * the caller's model, pinned with it).
 */
export function agentModelPinned(
  choice: string,
  context: { callerPinned: boolean; sessionPinned: boolean; settings: Settings },
): boolean {
  switch (choice) {
    case 'inherit':
    case '':
      return context.callerPinned
    case 'main':
      return context.sessionPinned
    case 'fast':
      return context.settings.model.fast === undefined ? context.callerPinned : false
    default:
      return true
  }
}

/** Whether a model choice names a role (its model comes from settings) rather than an id. */
export function isModelRole(choice: string): boolean {
  return choice === 'main' || choice === 'fast' || choice === 'review'
}
