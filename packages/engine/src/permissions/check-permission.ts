import { type Action, buildRuleSet, decide, normalizeMode, type RuleError } from '@z-engine/policy'
import type { PermissionDecisionKind, SuggestedRule } from '@z-engine/protocol'
import { actionFor } from '@z-engine/tools'

/** One question for `checkPermission`: the shape `z-engine permissions check` reads per line. */
export interface PermissionCheckRequest {
  tool: string
  input: unknown
  /** A permission mode; `bypassPermissions` is read as `bypass`. Defaults to `default`. */
  mode?: string
  rules?: { allow?: unknown[]; deny?: unknown[]; ask?: unknown[] }
  /** The agent's cwd; also the project root unless `projectRoot` is given. */
  cwd: string
  home: string
  projectRoot?: string
  additionalDirectories?: string[]
}

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
 * policy a session uses. Paths need not exist. Never throws: a malformed request is an error value.
 */
export function checkPermission(request: unknown): PermissionCheckResult {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    return { ok: false, error: 'expected a JSON object {tool, input, mode, rules, cwd, home}' }
  }
  const fields = request as Record<string, unknown>
  if (typeof fields.tool !== 'string' || fields.tool === '')
    return { ok: false, error: '"tool" must be a tool name such as "Bash"' }
  for (const key of ['cwd', 'home'] as const) {
    const value = fields[key]
    if (typeof value !== 'string' || !value.startsWith('/'))
      return { ok: false, error: `"${key}" must be an absolute path` }
  }
  if (
    fields.projectRoot !== undefined &&
    (typeof fields.projectRoot !== 'string' || !fields.projectRoot.startsWith('/'))
  ) {
    return { ok: false, error: '"projectRoot" must be an absolute path' }
  }
  const mode = normalizeMode(fields.mode ?? 'default')
  if (!mode) {
    return {
      ok: false,
      error: `"mode" must be one of default, acceptEdits, plan, bypass (got ${JSON.stringify(fields.mode)})`,
    }
  }
  const additional = fields.additionalDirectories ?? []
  if (
    !Array.isArray(additional) ||
    additional.some((dir) => typeof dir !== 'string' || !dir.startsWith('/'))
  ) {
    return { ok: false, error: '"additionalDirectories" must be a list of absolute paths' }
  }
  const rules = fields.rules ?? {}
  if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) {
    return { ok: false, error: '"rules" must be an object {allow, deny, ask} of rule lists' }
  }
  const cwd = fields.cwd as string
  const home = fields.home as string
  const projectRoot = (fields.projectRoot as string | undefined) ?? cwd
  const ruleSet = buildRuleSet([
    { source: 'input', ...(rules as { allow?: unknown[]; deny?: unknown[]; ask?: unknown[] }) },
  ])
  const action = actionFor(fields.tool, fields.input, { projectRoot, cwd, home })
  const decision = decide(
    action,
    { mode, rules: ruleSet, projectRoot, additionalDirectories: additional as string[], home },
    { toolName: fields.tool, explain: true },
  )
  const steps = [
    `${fields.tool} maps to ${JSON.stringify(action)}`,
    ...ruleSet.errors.map((error) => `ignored rule ${JSON.stringify(error.text)}: ${error.message}`),
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
