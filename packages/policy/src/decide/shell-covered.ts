import { isWithin, normalizePath } from '../paths/normalize.js'
import { bashRuleMatches, pathRuleMatches } from '../rules/match.js'
import { parseRule, type Rule } from '../rules/parse-rule.js'
import type { CommandFacts, LineFacts, Target } from '../shell/analyze.js'
import { type Needed, suggestionCovering, targetPath } from './bash-rule-suggestion.js'
import type { Confinement, Decision, PolicyContext } from './context.js'
import { isInScope } from './files.js'
import type { Access } from './shell-path-verdict.js'
import type { Trace } from './trace.js'

function describeTarget(target: Target): string {
  return target.kind === 'path' ? target.path : target.kind === 'glob' ? target.pattern : target.text
}

function targetInBounds(target: Target, roots: readonly string[]): boolean {
  const path = target.kind === 'path' ? target.path : target.kind === 'glob' ? target.base : undefined
  return path !== undefined && roots.some((root) => isWithin(path, normalizePath(root)))
}

/** What the allow rules, the proof, the mode and the sandbox cover of a line, command by command. */
interface Coverage {
  /** The first path read or written outside the project and its additional directories. */
  outside?: string
  usedRule?: Rule
  /** The first command nothing covers, with the reason when it is a write. */
  uncovered?: CommandFacts
  /** Everything one approval must cover for "always" to hold next time (every part of a compound). */
  needed: Needed[]
  unknownWrite: boolean
  fileCommand: boolean
  /** A rule-covered command writes what the mode or the sandbox allows, not the rule. */
  ruleWrites: boolean
  /** Commands an allow rule covered. */
  ruleCovered: CommandFacts[]
  /** Some command relied on the proof or acceptEdits. */
  analysisUsed: boolean
}

function allowPathRule(context: PolicyContext, target: Target, access: Access): Rule | undefined {
  return target.kind === 'path'
    ? context.rules.allow.find(
        (rule) => rule.matcher.type === 'path' && pathRuleMatches(rule, access, target.path, context, false),
      )
    : undefined
}

function surveyCoverage(
  facts: LineFacts,
  context: PolicyContext,
  sandboxRoots: readonly string[] | undefined,
  excludedPatterns: readonly string[],
): Coverage {
  const coverage: Coverage = {
    needed: [],
    unknownWrite: false,
    fileCommand: false,
    ruleWrites: false,
    ruleCovered: [],
    analysisUsed: false,
  }
  const { needed } = coverage
  for (const c of facts.commands) {
    for (const [targets, access] of [
      [c.reads, 'read'],
      [c.writes, 'edit'],
    ] as const) {
      for (const target of targets) {
        if (target.kind === 'unknown') {
          if (access === 'edit') coverage.unknownWrite = true
          continue
        }
        const path = target.kind === 'path' ? target.path : target.base
        if (access === 'edit' && sandboxRoots && targetInBounds(target, sandboxRoots)) continue
        if (!isInScope(path, context) && !allowPathRule(context, target, access)) {
          coverage.outside ??= path
          needed.push({ kind: 'outside', target, access })
        }
      }
    }
    const rule = context.rules.allow.find((candidate) => bashRuleMatches(candidate, c, false))
    // A write (a redirection, `--output=F`, `sed w F`) needs edit permission whatever rule allowed
    // the command: acceptEdits, an Edit allow rule, or a sandbox that confines it.
    const unpermittedWrite = c.writeThrough.find(
      (target) =>
        target.kind !== 'unknown' &&
        context.mode !== 'acceptEdits' &&
        !(sandboxRoots && targetInBounds(target, sandboxRoots)) &&
        !allowPathRule(context, target, 'edit'),
    )
    const unknownRead = c.reads.some((target) => target.kind === 'unknown')
    const proven = c.readOnly && context.autoAllowReadOnlyBash !== false && !unknownRead
    // A proven read-only command runs on the proof (read-only view, git neutralised) even when a
    // rule covers it too; only a rule's command in `excluded_commands` keeps the rule's way.
    if (proven && !(rule && excludedFromSandbox(c, excludedPatterns))) {
      coverage.analysisUsed = true
      continue
    }
    if (rule && !unpermittedWrite) {
      coverage.usedRule ??= rule
      coverage.ruleCovered.push(c)
      // Its writes are allowed by the mode or the sandbox's bounds, not by the rule: it runs
      // confined so they cannot leave them (issue 34: `Bash(find:*)` and `find . -delete`).
      if (
        c.writeThrough.some((target) => target.kind !== 'unknown' && !allowPathRule(context, target, 'edit'))
      )
        coverage.ruleWrites = true
      continue
    }
    if (rule && unpermittedWrite) {
      coverage.uncovered ??= {
        ...c,
        reason: `it writes ${describeTarget(unpermittedWrite)}, which needs edit permission`,
      }
      needed.push({ kind: 'write', target: unpermittedWrite })
      continue
    }
    if (context.mode === 'acceptEdits' && c.fileCommand) {
      coverage.fileCommand = true
      coverage.analysisUsed = true
      continue
    }
    coverage.uncovered ??= c
    needed.push({ kind: 'command', command: c })
    if (!(context.mode === 'acceptEdits')) {
      for (const target of c.writeThrough) {
        if (
          target.kind !== 'unknown' &&
          isInScope(targetPath(target), context) &&
          !allowPathRule(context, target, 'edit')
        )
          needed.push({ kind: 'write', target })
      }
    }
  }
  return coverage
}

/** Decides a line no deny or ask rule stopped: allow rules, the read-only proof, acceptEdits, the sandbox. */
export function decideCovered(facts: LineFacts, context: PolicyContext, trace: Trace): Decision {
  const sandbox = context.sandbox
  const excludedPatterns = sandbox?.excludedCommands ?? []
  // A confined command may write the sandbox's writable roots (temp, caches) without asking.
  const sandboxRoots =
    sandbox?.active && sandbox.autoAllow
      ? [context.projectRoot, ...context.additionalDirectories, ...(sandbox.writableRoots ?? [])]
      : undefined
  const {
    outside,
    usedRule,
    uncovered,
    needed,
    unknownWrite,
    fileCommand,
    ruleWrites,
    ruleCovered,
    analysisUsed,
  } = surveyCoverage(facts, context, sandboxRoots, excludedPatterns)
  trace.step(() =>
    uncovered
      ? `not covered: ${JSON.stringify(uncovered?.text)} (${uncovered?.reason ?? 'no allow rule'})`
      : 'every command is covered',
  )
  // Every command is one the user's rules allow and `excluded_commands` lets run outside the sandbox
  // (`git push` needs ssh keys, a credential helper and the network): the line runs unconfined.
  const excluded =
    !uncovered &&
    !ruleWrites &&
    !analysisUsed &&
    ruleCovered.length > 0 &&
    ruleCovered.every((c) => excludedFromSandbox(c, excludedPatterns))
  if (sandboxRoots && outside === undefined && !excluded) {
    const roots = sandboxRoots
    const inBounds = facts.commands.every((c) =>
      c.writes.every((target) => target.kind === 'unknown' || targetInBounds(target, roots)),
    )
    if (inBounds)
      return confined(
        trace.done('allow', 'the sandbox confines this command and its writes stay in bounds (auto_allow)'),
        'write',
      )
    trace.step('sandbox auto_allow does not apply: a write leaves the sandbox bounds')
  }
  if (outside !== undefined) {
    return trace.done(
      'ask',
      `${outside} is outside the project and its additional directories`,
      undefined,
      suggestionCovering(needed, context, 'session'),
    )
  }
  if (!uncovered && unknownWrite && usedRule) {
    return trace.done('ask', 'the command writes to a file the line does not name')
  }
  if (!uncovered) {
    if (usedRule) {
      if (excluded) {
        trace.step('every command is in [shell.sandbox] excluded_commands: it runs unconfined')
        return trace.done('allow', 'allow rules cover every command of the line', usedRule)
      }
      const allowed = trace.done('allow', 'allow rules cover every command of the line', usedRule)
      // Allowed commands that are not proven read-only still run confined (issue 34): the write
      // profile, and git as configured unless part of the line relied on the policy's own analysis.
      return confined(allowed, analysisUsed || ruleWrites ? 'write' : 'rule')
    }
    return confined(
      trace.done(
        'allow',
        context.mode === 'acceptEdits'
          ? 'read-only or simple file commands inside the project'
          : 'every command is proven read-only',
      ),
      fileCommand ? 'write' : 'read-only',
    )
  }
  const why = uncovered.reason ?? 'no allow rule covers it'
  const suggestion = suggestionCovering(needed, context, 'project')
  return trace.done('ask', `${JSON.stringify(uncovered.text)} needs approval: ${why}`, undefined, suggestion)
}

/** Whether `excluded_commands` (Bash rule patterns such as `git push:*`) names this command. */
function excludedFromSandbox(command: CommandFacts, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => {
    const parsed = parseRule(`Bash(${pattern})`, '[shell.sandbox] excluded_commands')
    return parsed.ok && bashRuleMatches(parsed.rule, command, false)
  })
}

/** Marks an allow that holds because the command will run confined. */
function confined(decision: Decision, confinement: Confinement): Decision {
  decision.confinement = confinement
  return decision
}
