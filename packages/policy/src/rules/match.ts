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

/**
 * Variables Claude Code drops before matching an allow rule (`NODE_ENV=test npm test` is covered by
 * `Bash(npm test:*)`): they tune a program's output or build target but cannot change which program
 * runs or load code into it. Anything else (NODE_OPTIONS, LD_PRELOAD, PATH…) must be written in the
 * rule itself, as in `Bash(NODE_OPTIONS=--inspect node app.js)`.
 */
const RULE_SAFE_ASSIGNMENT =
  /^(NODE_ENV|RUST_LOG|RUST_BACKTRACE|GOOS|GOARCH|CGO_ENABLED|GO111MODULE|GOEXPERIMENT|PYTHONUNBUFFERED|PYTHONDONTWRITEBYTECODE|PYTEST_DISABLE_PLUGIN_AUTOLOAD|PYTEST_DEBUG|LANGUAGE|CHARSET|COLORTERM|LS_COLORS|LSCOLORS|GREP_COLORS?|GCC_COLORS|TIME_STYLE|BLOCK_SIZE|BLOCKSIZE)=/

/** A Bash rule that starts with an assignment (`Bash(NODE_OPTIONS=… node app.js)`). */
const ASSIGNMENT_RULE = /^Bash\(\s*[A-Za-z_][A-Za-z0-9_]*=/i

/** Whether an allow rule may ignore this assignment before the command. */
function ignorableAssignment(word: { literal: boolean; value: string }): boolean {
  return word.literal && (SAFE_ASSIGNMENT.test(word.value) || RULE_SAFE_ASSIGNMENT.test(word.value))
}

/**
 * Whether a Bash rule matches one command (or, for deny/ask, the whole line). The command is tried
 * as written after its assignments and, when every assignment is literal, with them in front, so a
 * rule may name them (`Bash(NODE_ENV=test npm test)`).
 */
export function bashRuleMatches(rule: Rule, command: CommandFacts, strict: boolean): boolean {
  if (rule.tool !== 'Bash') return false
  const name = command.words[0]
  const literalAssignments = command.assignments.every((word) => word.literal)
  const withAssignments =
    command.assignments.length > 0 && literalAssignments
      ? [...command.assignments.map((word) => word.value), command.text].join(' ')
      : undefined
  if (!strict) {
    // An allow rule never covers a computed name, another user, an environment that changes what
    // runs (NODE_OPTIONS=…, LD_PRELOAD=…) unless the rule spells it, or unseen arguments to an exact command.
    if (name === undefined || !name.literal || command.elevated) return false
    if (command.unknownArgs && rule.matcher.type === 'bashExact') return false
    const ignorable = command.assignments.every(ignorableAssignment)
    // A leading `*` must not cover an assignment nobody wrote: only a rule that starts with one does.
    if (
      withAssignments !== undefined &&
      (ignorable || ASSIGNMENT_RULE.test(rule.text)) &&
      bashTextMatches(rule, withAssignments)
    )
      return true
    if (!ignorable) return false
  }
  const texts = [command.text]
  if (strict && withAssignments !== undefined) texts.push(withAssignments)
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
