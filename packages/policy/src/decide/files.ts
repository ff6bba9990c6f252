import { isAmbiguousPath, isWithin, normalizePath, relativeTo } from '../paths/normalize.js'
import { protectedReason } from '../paths/protected.js'
import { pathRuleMatches } from '../rules/match.js'
import type { Rule } from '../rules/parse-rule.js'
import type { DecideOptions, Decision, PolicyContext } from './context.js'
import type { Trace } from './trace.js'

/** A scope folder as configured and its real path (equal when no link leads to it). */
interface Root {
  given: string
  real: string
}

/** The folders a context's scope is made of, with their real paths; computed once per context. */
const ROOTS = new WeakMap<PolicyContext, readonly Root[]>()

function scopeRoots(context: PolicyContext): readonly Root[] {
  const cached = ROOTS.get(context)
  if (cached) return cached
  const roots = [context.projectRoot, ...context.additionalDirectories].map((dir) => {
    const given = normalizePath(dir)
    // A project under a symlinked folder (macOS /tmp) has its real paths under the real root.
    const real = context.pathFacts?.realPath(given)
    return { given, real: real === undefined ? given : normalizePath(real) }
  })
  ROOTS.set(context, roots)
  return roots
}

/** True when `path` is inside the project or an additional directory (or their real folders). */
export function isInScope(path: string, context: PolicyContext): boolean {
  return scopeRoots(context).some((root) => isWithin(path, root.given) || isWithin(path, root.real))
}

/** Whether `real` is `path` seen through a link to a scope folder only (nothing below it links). */
function onlyRootLinked(path: string, real: string, context: PolicyContext): boolean {
  return scopeRoots(context).some(
    (root) =>
      root.real !== root.given &&
      isWithin(path, root.given) &&
      real === normalizePath(`${root.real}/${relativeTo(path, root.given)}`),
  )
}

/** Why changing `path` always asks (spec 001 protected paths, with the context's facts), or undefined. */
export function protectedIn(path: string, context: PolicyContext): string | undefined {
  // A real path under the project's real folder is judged as the same path under the project.
  const root = scopeRoots(context)[0]
  const rel = root && root.real !== root.given ? relativeTo(path, root.real) : undefined
  const seen = rel === undefined ? path : normalizePath(`${root?.given}/${rel}`)
  return protectedReason(seen, context.projectRoot, context.home, context.pathFacts?.hooksPath)
}

/** Normalizes an action path; an ambiguous or relative one can never be auto-allowed. */
export function cleanPath(path: string): { path: string; ambiguous: boolean } {
  const ambiguous = isAmbiguousPath(path) || !path.startsWith('/')
  return { path: normalizePath(path.startsWith('/') ? path : `/${path}`), ambiguous }
}

/** One path the decision covers: as the tool named it, or the real path a link leads to. */
interface Target {
  path: string
  ambiguous: boolean
  /** The path as named, when `path` is its real path. */
  via?: string
}

/**
 * The paths to decide on: each as given and, when facts are known and a link leads elsewhere, its
 * real path too. `unresolved` names a path whose real path could not be told (a link loop).
 */
export function targetsOf(
  rawPaths: readonly string[],
  context: PolicyContext,
): { targets: Target[]; unresolved?: string; realPaths: Record<string, string> } {
  const targets: Target[] = []
  const realPaths: Record<string, string> = {}
  let unresolved: string | undefined
  for (const raw of rawPaths) {
    const clean = cleanPath(raw)
    targets.push(clean)
    if (!context.pathFacts || clean.ambiguous) continue
    const real = context.pathFacts.realPath(clean.path)
    if (real === undefined) {
      unresolved ??= clean.path
      continue
    }
    const path = normalizePath(real)
    realPaths[clean.path] = path
    if (path !== clean.path && !onlyRootLinked(clean.path, path, context))
      targets.push({ path, ambiguous: false, via: clean.path })
  }
  return unresolved === undefined ? { targets, realPaths } : { targets, unresolved, realPaths }
}

function named(target: Target): string {
  return target.via === undefined ? target.path : `${target.via} (a link to ${target.path})`
}

function toolRule(rule: Rule, options: DecideOptions): boolean {
  return (
    rule.matcher.type === 'any' &&
    options.toolName !== undefined &&
    rule.tool.toLowerCase() === options.toolName.toLowerCase()
  )
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

/** The first Read deny rule naming one of `paths` (a bare `Read` rule is about the tool, not files). */
export function readDenyRule(
  rules: readonly Rule[],
  paths: readonly string[],
  context: PolicyContext,
): Rule | undefined {
  return rules.find(
    (rule) =>
      rule.matcher.type === 'path' &&
      rule.matcher.access === 'read' &&
      paths.some((path) => pathRuleMatches(rule, 'read', path, context, true)),
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
  const resolved = targetsOf(rawPaths.length > 0 ? rawPaths : [context.projectRoot], context)
  const decision = decideTargets(kind, resolved, context, options, trace)
  if (context.pathFacts) decision.realPaths = resolved.realPaths
  return decision
}

function decideTargets(
  kind: 'read' | 'write',
  { targets, unresolved }: { targets: Target[]; unresolved?: string },
  context: PolicyContext,
  options: DecideOptions,
  trace: Trace,
): Decision {
  const access = kind === 'read' ? 'read' : 'edit'
  const paths = targets.map((target) => target.path)
  trace.step(() => `${kind} of ${targets.map(named).join(', ')}`)
  const deny = firstPathRule(context.rules.deny, access, paths, context, true, options)
  if (deny) return trace.done('deny', `a deny rule forbids this ${kind}`, deny)
  // Claude Code: a file the user forbids reading (`Read(./.env)`) may not be edited or overwritten
  // either, since an edit reveals and replaces what it holds.
  const readDeny = kind === 'write' ? readDenyRule(context.rules.deny, paths, context) : undefined
  if (readDeny)
    return trace.done('deny', 'a Read deny rule forbids this file, so changing it is refused too', readDeny)
  trace.step('no deny rule matches')
  if (kind === 'write' && context.mode === 'plan') {
    return trace.done('deny', 'plan mode is read-only: changing files is refused until the plan is approved')
  }
  if (unresolved !== undefined) {
    return trace.done(
      'ask',
      `the real path of ${unresolved} cannot be told (a symlink loop or an unreadable folder); asking instead`,
    )
  }
  const ask = firstPathRule(context.rules.ask, access, paths, context, true, options)
  if (ask) return trace.done('ask', `an ask rule requires approval for this ${kind}`, ask)
  trace.step('no ask rule matches')
  if (kind === 'write') {
    for (const target of targets) {
      const reason = protectedIn(target.path, context)
      if (reason === undefined) continue
      if (context.mode === 'bypass')
        return trace.done('allow', `bypass mode allows changing a protected path (${reason})`)
      return trace.done('ask', `${named(target)} is protected: ${reason}; changes always ask`)
    }
    trace.step('no protected path')
  }
  if (context.mode === 'bypass')
    return trace.done('allow', 'bypass mode allows everything no deny rule forbids')
  const outside = targets.filter((target) => target.ambiguous || !isInScope(target.path, context))
  const allow = context.rules.allow.find(
    (rule) =>
      toolRule(rule, options) || paths.every((path) => pathRuleMatches(rule, access, path, context, false)),
  )
  if (allow && !targets.some((target) => target.ambiguous))
    return trace.done('allow', `an allow rule covers this ${kind}`, allow)
  trace.step('no allow rule covers every path')
  const first = outside[0]
  if (first !== undefined) {
    const folder = first.path.slice(0, first.path.lastIndexOf('/')) || '/'
    return trace.done(
      'ask',
      `${named(first)} is outside the project and its additional directories`,
      undefined,
      { rule: `${kind === 'read' ? 'Read' : 'Edit'}(/${folder === '/' ? '' : folder}/**)`, scope: 'session' },
    )
  }
  if (kind === 'read') return trace.done('allow', 'reading inside the project needs no approval')
  if (context.mode === 'acceptEdits')
    return trace.done('allow', 'acceptEdits mode allows edits inside the project')
  const rel = relativeTo(paths[0] as string, normalizePath(context.projectRoot)) ?? ''
  const folder = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : ''
  return trace.done('ask', 'default mode asks before edits', undefined, {
    rule: folder === '' ? 'Edit(/*)' : `Edit(/${folder}/**)`,
    scope: 'project',
  })
}
