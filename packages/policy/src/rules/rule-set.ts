import { guessRuleTool, parseRule, type Rule, type RuleError, type RuleKind } from './parse-rule.js'

/** Rules from one settings layer (or the session, or one turn), tagged with where they came from. */
export interface RuleLayer {
  source: string
  allow?: readonly unknown[]
  deny?: readonly unknown[]
  ask?: readonly unknown[]
}

/**
 * A deny or ask rule that failed to parse. It cannot be matched, so it fails closed: every action
 * of `tool` (every action at all when the tool cannot be told) asks until the rule is fixed.
 */
export interface UnparsedRule {
  kind: 'deny' | 'ask'
  /** The canonical tool the text names (`Bash(rm -rf` → `Bash`), or undefined. */
  tool: string | undefined
  error: RuleError
}

/** Every rule in effect, by kind, plus the rules that failed to parse (allow ones never take effect). */
export interface RuleSet {
  allow: Rule[]
  deny: Rule[]
  ask: Rule[]
  errors: RuleError[]
  /** Deny and ask rules that failed to parse (also in `errors`); matching actions ask. */
  unparsed?: UnparsedRule[]
}

/**
 * Parses the rules of every layer. An unparseable rule is reported with its source; an allow one is
 * ignored, a deny or ask one is kept in `unparsed` so the actions it may have guarded ask.
 */
export function buildRuleSet(layers: readonly RuleLayer[]): RuleSet {
  const unparsed: UnparsedRule[] = []
  const set: RuleSet = { allow: [], deny: [], ask: [], errors: [], unparsed }
  const kinds: readonly RuleKind[] = ['deny', 'ask', 'allow']
  for (const layer of layers) {
    for (const kind of kinds) {
      const list = layer[kind]
      if (list === undefined) continue
      if (!Array.isArray(list)) {
        const error = { text: String(list), source: layer.source, message: `${kind} must be a list of rules` }
        set.errors.push(error)
        if (kind !== 'allow') unparsed.push({ kind, tool: undefined, error })
        continue
      }
      for (const text of list) {
        const parsed = parseRule(text as string, layer.source)
        if (parsed.ok) set[kind].push(parsed.rule)
        else {
          const error = { ...parsed.error, text: String(text) }
          set.errors.push(error)
          if (kind !== 'allow') unparsed.push({ kind, tool: guessRuleTool(text), error })
        }
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
  unparsed: Object.freeze([]),
}) as unknown as RuleSet
