import {
  type Action,
  buildRuleSet,
  decide,
  normalizeMode,
  type PolicyContext,
  type RuleError,
} from '@z-engine/policy'
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
  /** `shell.sandbox` facts: commands run confined; `autoAllow` lets in-bounds ones run. */
  sandbox?: { active: boolean; autoAllow: boolean; writableRoots?: string[] }
  /** `permissions.auto_allow_read_only_bash` (default true). */
  autoAllowReadOnlyBash?: boolean
  /** `web.allowed_private_hosts`. */
  allowedPrivateHosts?: string[]
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
  const sandbox = fields.sandbox
  if (
    sandbox !== undefined &&
    (typeof sandbox !== 'object' ||
      sandbox === null ||
      typeof (sandbox as Record<string, unknown>).active !== 'boolean' ||
      typeof (sandbox as Record<string, unknown>).autoAllow !== 'boolean' ||
      !isPathList((sandbox as Record<string, unknown>).writableRoots ?? []))
  ) {
    return {
      ok: false,
      error: '"sandbox" must be {active: boolean, autoAllow: boolean, writableRoots?: [absolute paths]}',
    }
  }
  if (fields.autoAllowReadOnlyBash !== undefined && typeof fields.autoAllowReadOnlyBash !== 'boolean') {
    return { ok: false, error: '"autoAllowReadOnlyBash" must be true or false' }
  }
  const privateHosts = fields.allowedPrivateHosts ?? []
  if (!Array.isArray(privateHosts) || privateHosts.some((host) => typeof host !== 'string')) {
    return { ok: false, error: '"allowedPrivateHosts" must be a list of host names' }
  }
  const cwd = fields.cwd as string
  const home = fields.home as string
  const projectRoot = (fields.projectRoot as string | undefined) ?? cwd
  const ruleSet = buildRuleSet([
    { source: 'input', ...(rules as { allow?: unknown[]; deny?: unknown[]; ask?: unknown[] }) },
  ])
  const action = actionFor(fields.tool, fields.input, { projectRoot, cwd, home })
  const context: PolicyContext = {
    mode,
    rules: ruleSet,
    projectRoot,
    additionalDirectories: additional as string[],
    home,
    allowedPrivateHosts: privateHosts as string[],
  }
  if (sandbox !== undefined) context.sandbox = sandbox as NonNullable<PolicyContext['sandbox']>
  if (typeof fields.autoAllowReadOnlyBash === 'boolean')
    context.autoAllowReadOnlyBash = fields.autoAllowReadOnlyBash
  const decision = decide(action, context, { toolName: fields.tool, explain: true })
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

function isPathList(value: unknown): boolean {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string' && entry.startsWith('/'))
}
