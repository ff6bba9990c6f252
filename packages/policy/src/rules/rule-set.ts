import { parseRule, type Rule, type RuleError, type RuleKind } from './parse-rule.js'

/** Rules from one settings layer (or the session, or one turn), tagged with where they came from. */
export interface RuleLayer {
  source: string
  allow?: readonly unknown[]
  deny?: readonly unknown[]
  ask?: readonly unknown[]
}

/** Every rule in effect, by kind, plus the rules that failed to parse (which never take effect). */
export interface RuleSet {
  allow: Rule[]
  deny: Rule[]
  ask: Rule[]
  errors: RuleError[]
}

/** Parses the rules of every layer; an unparsable rule is reported with its source and ignored. */
export function buildRuleSet(layers: readonly RuleLayer[]): RuleSet {
  const set: RuleSet = { allow: [], deny: [], ask: [], errors: [] }
  const kinds: readonly RuleKind[] = ['deny', 'ask', 'allow']
  for (const layer of layers) {
    for (const kind of kinds) {
      const list = layer[kind]
      if (list === undefined) continue
      if (!Array.isArray(list)) {
        set.errors.push({
          text: String(list),
          source: layer.source,
          message: `${kind} must be a list of rules`,
        })
        continue
      }
      for (const text of list) {
        const parsed = parseRule(text as string, layer.source)
        if (parsed.ok) set[kind].push(parsed.rule)
        else set.errors.push({ ...parsed.error, text: String(text) })
      }
    }
  }
  return set
}

/** An empty rule set. */
export const NO_RULES: RuleSet = Object.freeze({
  allow: Object.freeze([]),
  deny: Object.freeze([]),
  ask: Object.freeze([]),
  errors: Object.freeze([]),
}) as unknown as RuleSet
