import type { PolicyContext } from './decide/context.js'
import { cleanPath } from './decide/files.js'
import { pathRuleMatches } from './rules/match.js'
import { analyzeLine } from './shell/analyze.js'

/**
 * Whether a shell line is proven read-only: fully lexed and every command in the read-only table
 * with safe options and no writing redirection. Paths don't matter here (`decide` checks scope).
 */
export function provesReadOnly(line: string, cwd = '/', home = '/home'): boolean {
  const facts = analyzeLine(line, cwd, home)
  return facts.complete && facts.commands.every((command) => command.readOnly)
}

/**
 * Whether a deny rule forbids reading `path`. Glob and Grep use it to leave denied files out of
 * results, since the policy only sees their root folder.
 */
export function readDenied(path: string, context: PolicyContext): boolean {
  const { path: clean } = cleanPath(path)
  return context.rules.deny.some((rule) => pathRuleMatches(rule, 'read', clean, context, true))
}
