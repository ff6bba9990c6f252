import { type Action, buildRuleSet, type RuleError } from '@z-engine/policy'
import {
  type PermissionDecisionKind,
  parsePermissionCheckRequest,
  type SuggestedRule,
} from '@z-engine/protocol'
import { decideToolCall, type GateFacts } from './policy-gate.js'

/** The answer: the same decision a session would make, with the pipeline's steps. */
export type PermissionCheckResult =
  | {
      ok: true
      decision: PermissionDecisionKind
      reason: string
      rule?: string
      suggestion?: SuggestedRule
      /** The action the tool mapped the input to, then each step of the pipeline. */
      steps: string[]
      action: Action
      /** Rules that failed to parse (they never take effect). */
      ruleErrors: RuleError[]
    }
  | { ok: false; error: string }

/**
 * Answers "what would the gate say to this call?" with the built-in tools' action mapping and the
 * gate a session uses (`policy-gate.ts`), symlinks on this machine resolved as a session resolves them. The request is checked against the protocol's
 * `PermissionCheckRequestSchema`. Paths need not exist. Never throws: a malformed request is an
 * error value.
 */
export function checkPermission(request: unknown): PermissionCheckResult {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    return { ok: false, error: 'expected a JSON object {tool, input, mode, rules, cwd, home}' }
  }
  const parsed = parsePermissionCheckRequest(request)
  if (!parsed.ok) return { ok: false, error: `"${parsed.error.path}" ${parsed.error.message}` }
  const checked = parsed.request
  const facts: GateFacts = {
    mode: checked.mode ?? 'default',
    projectRoot: checked.projectRoot ?? checked.cwd,
    home: checked.home,
    additionalDirectories: checked.additionalDirectories ?? [],
    ...(checked.autoAllowReadOnlyBash !== undefined
      ? { autoAllowReadOnlyBash: checked.autoAllowReadOnlyBash }
      : {}),
    allowedPrivateHosts: checked.allowedPrivateHosts ?? [],
    ...(checked.sandbox !== undefined ? { sandbox: checked.sandbox } : {}),
  }
  const ruleSet = buildRuleSet([{ source: 'input', ...(checked.rules ?? {}) }])
  const { action, decision } = decideToolCall(checked.tool, checked.input, facts, ruleSet, {
    cwd: checked.cwd,
    explain: true,
  })
  const steps = [
    `${checked.tool} maps to ${JSON.stringify(action)}`,
    ...ruleSet.errors.map((error) => `unparseable rule ${JSON.stringify(error.text)}: ${error.message}`),
    ...(decision.steps ?? []),
  ]
  const result: PermissionCheckResult = {
    ok: true,
    decision: decision.decision,
    reason: decision.reason,
    steps,
    action,
    ruleErrors: ruleSet.errors,
  }
  if (decision.rule) result.rule = decision.rule
  if (decision.suggestion) result.suggestion = decision.suggestion
  return result
}
