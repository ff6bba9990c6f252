import type { Rule } from '../rules/parse-rule.js'
import type { Decision, PolicyContext } from './context.js'

/**
 * The context a Verify check's line is decided in: each `Verify` rule naming the check (or every
 * check) also acts as a Bash rule over that line alone, so `Verify(test)` allows `npm test` when it
 * runs as the check and never as a Bash call. The rule keeps its text, so a decision names it.
 */
export function withCheckRules(context: PolicyContext, check: string): PolicyContext {
  const forCheck = (rules: readonly Rule[]): Rule[] =>
    rules
      .filter((rule) => namesCheck(rule, check))
      .map((rule) => ({ ...rule, tool: 'Bash', matcher: { type: 'any' } }))
  const { rules } = context
  return {
    ...context,
    rules: {
      ...rules,
      allow: [...rules.allow, ...forCheck(rules.allow)],
      deny: [...rules.deny, ...forCheck(rules.deny)],
      ask: [...rules.ask, ...forCheck(rules.ask)],
    },
  }
}

/** An ask about a check offers the rule for that check, not one for its shell command. */
export function withCheckSuggestion(decision: Decision, check: string): Decision {
  if (decision.decision !== 'ask' || decision.suggestion === undefined) return decision
  return { ...decision, suggestion: { rule: `Verify(${check})`, scope: decision.suggestion.scope } }
}

function namesCheck(rule: Rule, check: string): boolean {
  if (rule.tool !== 'Verify') return false
  switch (rule.matcher.type) {
    case 'any':
      return true
    case 'name':
      return rule.matcher.name === '*' || rule.matcher.name === check
    default:
      return false
  }
}
