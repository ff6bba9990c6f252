import { isWithin, normalizePath, relativeTo } from '../paths/normalize.js'
import { type CommandFacts, SAFE_ASSIGNMENT } from '../shell/analyze.js'
import type { Rule } from './parse-rule.js'

/** Where path rules are anchored. */
export interface RuleBases {
  projectRoot: string
  home: string
}

const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit'])

/** A bare rule (`Read`, `Edit`…) for a kind of file access. */
export function isBareFileRule(rule: Rule, access: 'read' | 'edit'): boolean {
  if (rule.matcher.type !== 'any') return false
  return access === 'read' ? rule.tool === 'Read' : EDIT_TOOLS.has(rule.tool)
}

function baseOf(rule: Rule, bases: RuleBases): string {
  if (rule.matcher.type !== 'path') return '/'
  switch (rule.matcher.base) {
    case 'root':
      return '/'
    case 'home':
      return normalizePath(bases.home)
    case 'project':
      return normalizePath(bases.projectRoot)
    default: {
      const unreachable: never = rule.matcher.base
      return unreachable
    }
  }
}

/**
 * Whether a path rule matches `path` or a folder above it. `strict` (deny and ask rules) also lets
 * an unanchored pattern such as `.env` match outside its base.
 */
export function pathRuleMatches(
  rule: Rule,
  access: 'read' | 'edit',
  path: string,
  bases: RuleBases,
  strict: boolean,
): boolean {
  if (isBareFileRule(rule, access)) return true
  const matcher = rule.matcher
  if (matcher.type !== 'path' || matcher.access !== access) return false
  let rel = relativeTo(path, baseOf(rule, bases))
  if (rel === undefined) {
    if (!strict || matcher.anchored) return false
    rel = path.slice(1)
  }
  if (rel === '') return matcher.pattern === '**'
  return strict ? matcher.testNoCase(rel) : matcher.test(rel)
}

/** Whether a path rule could match something inside folder `dir` (recursive reads, globs). */
export function pathRuleCouldMatchBelow(
  rule: Rule,
  access: 'read' | 'edit',
  dir: string,
  bases: RuleBases,
): boolean {
  if (isBareFileRule(rule, access)) return true
  const matcher = rule.matcher
  if (matcher.type !== 'path' || matcher.access !== access) return false
  if (pathRuleMatches(rule, access, dir, bases, true)) return true
  if (!matcher.anchored) return true
  const fixed: string[] = []
  for (const segment of matcher.pattern.split('/')) {
    if (/[*?[\]{}()!+@]/.test(segment)) break
    fixed.push(segment)
  }
  const anchor = normalizePath(`${baseOf(rule, bases)}/${fixed.join('/')}`)
  return isWithin(anchor, dir) || isWithin(dir, anchor)
}

/** Whether a Bash rule matches one command (or, for deny/ask, the whole line). */
export function bashRuleMatches(rule: Rule, command: CommandFacts, strict: boolean): boolean {
  if (rule.tool !== 'Bash') return false
  const name = command.words[0]
  if (!strict) {
    // An allow rule never covers a computed name, another user, an environment that changes what
    // runs (NODE_OPTIONS=…, LD_PRELOAD=…), or unseen arguments to an exact command.
    if (name === undefined || !name.literal || command.elevated) return false
    if (command.assignments.some((word) => !word.literal || !SAFE_ASSIGNMENT.test(word.value))) return false
    if (command.unknownArgs && rule.matcher.type === 'bashExact') return false
  }
  const texts = [command.text]
  if (strict && name?.literal && name.value.includes('/')) {
    // `/bin/rm -rf x` is still rm to a deny rule.
    texts.push(
      [
        name.value.slice(name.value.lastIndexOf('/') + 1),
        ...command.words.slice(1).map((word) => word.value),
      ].join(' '),
    )
  }
  return texts.some((text) => bashTextMatches(rule, text))
}

/** Whether a Bash rule matches a command text. */
export function bashTextMatches(rule: Rule, text: string): boolean {
  const matcher = rule.matcher
  switch (matcher.type) {
    case 'any':
      return true
    case 'bashPrefix':
      return text === matcher.prefix || text.startsWith(`${matcher.prefix} `)
    case 'bashGlob':
      return matcher.regex.test(text)
    case 'bashExact':
      return text === matcher.command
    default:
      return false
  }
}
