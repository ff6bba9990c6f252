import {
  type Action,
  buildRuleSet,
  type Rule,
  type RuleError,
  type RuleKind,
  type RuleLayer,
  type RuleSet,
} from '@z-engine/policy'
import {
  type PermissionDecisionKind,
  parsePermissionCheckRequest,
  type SuggestedRule,
} from '@z-engine/protocol'
import { decideToolCall, type GateFacts, ruleLayersOf } from './policy-gate.js'

/** A project's rules (its settings layers after trust gating, each tagged with its file) for `--project`. */
export interface ProjectRules {
  ruleLayers: readonly RuleLayer[]
}

/**
 * The rules a project's sessions decide with, from its loaded settings: every layer after trust
 * gating (user, `~/.claude/settings.json`, `.claude/settings*.json`, `.z-engine/settings*.toml`…),
 * each tagged with its file.
 */
export function projectRulesOf(loaded: {
  layers: ReadonlyArray<{ name: string; file?: string; data: unknown }>
}): ProjectRules {
  return { ruleLayers: ruleLayersOf(loaded.layers) }
}

/** The answer: the same decision a session would make, with the pipeline's steps. */
export type PermissionCheckResult =
  | {
      ok: true
      decision: PermissionDecisionKind
      reason: string
      rule?: string
      /** The rule that decided: which list it sits in, its text and the file (or `input`) it came from. */
      matched?: { list: RuleKind; rule: string; source: string }
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
export function checkPermission(request: unknown, project?: ProjectRules): PermissionCheckResult {
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
  const ruleSet = buildRuleSet([
    ...(project?.ruleLayers ?? []),
    ...(checked.rules !== undefined || project === undefined
      ? [{ source: 'input', ...(checked.rules ?? {}) }]
      : []),
  ])
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
  if (decision.rule) {
    result.rule = decision.rule
    const matched = matchedRule(ruleSet, decision.rule)
    if (matched !== undefined) result.matched = matched
  }
  if (decision.suggestion) result.suggestion = decision.suggestion
  return result
}

/** The list and rule behind a decision's `rule` (`text (source)`), deny before ask before allow. */
function matchedRule(
  ruleSet: RuleSet,
  label: string,
): { list: RuleKind; rule: string; source: string } | undefined {
  const lists: ReadonlyArray<readonly [RuleKind, readonly Rule[]]> = [
    ['deny', ruleSet.deny],
    ['ask', ruleSet.ask],
    ['allow', ruleSet.allow],
  ]
  for (const [list, rules] of lists) {
    const rule = rules.find((candidate) => `${candidate.text} (${candidate.source})` === label)
    if (rule !== undefined) return { list, rule: rule.text, source: rule.source }
  }
  return undefined
}
