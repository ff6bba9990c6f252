import { isAmbiguousPath, isWithin, normalizePath, relativeTo } from '../paths/normalize.js'
import { protectedReason } from '../paths/protected.js'
import { pathRuleMatches } from '../rules/match.js'
import type { Rule } from '../rules/parse-rule.js'
import type { DecideOptions, Decision, PolicyContext } from './context.js'
import type { Trace } from './trace.js'

/** True when `path` is inside the project or an additional directory. */
export function isInScope(path: string, context: PolicyContext): boolean {
  if (isWithin(path, normalizePath(context.projectRoot))) return true
  return context.additionalDirectories.some((dir) => isWithin(path, normalizePath(dir)))
}

/** Normalizes an action path; an ambiguous or relative one can never be auto-allowed. */
export function cleanPath(path: string): { path: string; ambiguous: boolean } {
  const ambiguous = isAmbiguousPath(path) || !path.startsWith('/')
  return { path: normalizePath(path.startsWith('/') ? path : `/${path}`), ambiguous }
}

function toolRule(rule: Rule, options: DecideOptions): boolean {
  return rule.matcher.type === 'any' && rule.tool === options.toolName
}

/** The first rule of `rules` matching any of `paths`. */
export function firstPathRule(
  rules: readonly Rule[],
  access: 'read' | 'edit',
  paths: readonly string[],
  context: PolicyContext,
  strict: boolean,
  options: DecideOptions = {},
): Rule | undefined {
  return rules.find(
    (rule) =>
      toolRule(rule, options) || paths.some((path) => pathRuleMatches(rule, access, path, context, strict)),
  )
}

/** Decides a read or write of files (spec 001 "Permissions"; steps in docs/permissions.md). */
export function decideFiles(
  kind: 'read' | 'write',
  rawPaths: readonly string[],
  context: PolicyContext,
  options: DecideOptions,
  trace: Trace,
): Decision {
  const access = kind === 'read' ? 'read' : 'edit'
  const cleaned = (rawPaths.length > 0 ? rawPaths : [context.projectRoot]).map(cleanPath)
  const paths = cleaned.map((entry) => entry.path)
  trace.step(() => `${kind} of ${paths.join(', ')}`)
  const deny = firstPathRule(context.rules.deny, access, paths, context, true, options)
  if (deny) return trace.done('deny', `a deny rule forbids this ${kind}`, deny)
  trace.step('no deny rule matches')
  if (kind === 'write' && context.mode === 'plan') {
    return trace.done('deny', 'plan mode is read-only: changing files is refused until the plan is approved')
  }
  const ask = firstPathRule(context.rules.ask, access, paths, context, true, options)
  if (ask) return trace.done('ask', `an ask rule requires approval for this ${kind}`, ask)
  trace.step('no ask rule matches')
  if (kind === 'write') {
    for (const path of paths) {
      const reason = protectedReason(path, context.projectRoot, context.home)
      if (reason === undefined) continue
      if (context.mode === 'bypass')
        return trace.done('allow', `bypass mode allows changing a protected path (${reason})`)
      return trace.done('ask', `${path} is protected: ${reason}; changes always ask`)
    }
    trace.step('no protected path')
  }
  if (context.mode === 'bypass')
    return trace.done('allow', 'bypass mode allows everything no deny rule forbids')
  const outside = cleaned
    .filter((entry) => entry.ambiguous || !isInScope(entry.path, context))
    .map((entry) => entry.path)
  const allow = context.rules.allow.find(
    (rule) =>
      toolRule(rule, options) || paths.every((path) => pathRuleMatches(rule, access, path, context, false)),
  )
  if (allow && !cleaned.some((entry) => entry.ambiguous))
    return trace.done('allow', `an allow rule covers this ${kind}`, allow)
  trace.step('no allow rule covers every path')
  if (outside.length > 0) {
    const first = outside[0] as string
    const folder = first.slice(0, first.lastIndexOf('/')) || '/'
    return trace.done('ask', `${first} is outside the project and its additional directories`, undefined, {
      rule: `${kind === 'read' ? 'Read' : 'Edit'}(/${folder === '/' ? '' : folder}/**)`,
      scope: 'session',
    })
  }
  if (kind === 'read') return trace.done('allow', 'reading inside the project needs no approval')
  if (context.mode === 'acceptEdits')
    return trace.done('allow', 'acceptEdits mode allows edits inside the project')
  const first = paths[0] as string
  const rel = relativeTo(first, normalizePath(context.projectRoot)) ?? ''
  const folder = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : ''
  return trace.done('ask', 'default mode asks before edits', undefined, {
    rule: folder === '' ? 'Edit(/*)' : `Edit(/${folder}/**)`,
    scope: 'project',
  })
}
