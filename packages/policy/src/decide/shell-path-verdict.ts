import { pathRuleCouldMatchBelow, pathRuleMatches } from '../rules/match.js'
import type { Rule } from '../rules/parse-rule.js'
import type { CommandFacts, LineFacts, Target } from '../shell/analyze.js'
import type { PolicyContext } from './context.js'

export type Access = 'read' | 'edit'

/** How path rules of one list bear on a line's file targets. */
interface PathVerdict {
  /** A rule matches a determined target. */
  rule?: Rule
  /** A rule might match a target the line does not fully show (glob, variable, recursion). */
  uncertain?: Rule
}

export function pathVerdict(
  rules: readonly Rule[],
  facts: LineFacts,
  context: PolicyContext,
  strict: boolean,
  denyList = false,
): PathVerdict {
  const result: PathVerdict = {}
  for (const rule of rules) {
    if (rule.matcher.type !== 'path' && !(rule.matcher.type === 'any' && rule.tool !== 'Bash')) continue
    for (const command of facts.commands) {
      for (const [targets, access] of [
        [command.reads, 'read'],
        [command.writes, 'edit'],
      ] as const) {
        for (const target of targets) {
          const hit = targetMatch(rule, access, target, command, context, strict)
          if (hit === 'yes') return { rule }
          if (hit === 'maybe') result.uncertain ??= rule
          // A Read deny rule also forbids writing the file (Claude Code semantics; see decideFiles).
          if (
            denyList &&
            access === 'edit' &&
            target.kind === 'path' &&
            rule.matcher.type === 'path' &&
            rule.matcher.access === 'read' &&
            pathRuleMatches(rule, 'read', target.path, context, true)
          )
            return { rule }
        }
      }
      // Operands of commands whose file use is unknown: only a path pattern can name them.
      for (const mention of rule.matcher.type === 'path' ? command.mentions : []) {
        if (mention.kind !== 'path') continue
        if (
          pathRuleMatches(rule, 'read', mention.path, context, strict) ||
          pathRuleMatches(rule, 'edit', mention.path, context, strict)
        ) {
          return { rule }
        }
      }
    }
  }
  return result
}

function targetMatch(
  rule: Rule,
  access: Access,
  target: Target,
  command: CommandFacts,
  context: PolicyContext,
  strict: boolean,
) {
  switch (target.kind) {
    case 'path':
      if (pathRuleMatches(rule, access, target.path, context, strict)) return 'yes'
      if (
        access === 'read' &&
        command.recursive &&
        pathRuleCouldMatchBelow(rule, access, target.path, context)
      )
        return 'maybe'
      return 'no'
    case 'glob':
      return pathRuleCouldMatchBelow(rule, access, target.base, context) ? 'maybe' : 'no'
    case 'unknown':
      return rule.matcher.type === 'path' && rule.matcher.access === access ? 'maybe' : 'no'
    default: {
      const unreachable: never = target
      return unreachable
    }
  }
}
