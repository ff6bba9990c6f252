import type { SuggestedRule } from '@z-engine/protocol'
import { isWithin, normalizePath, relativeTo } from '../paths/normalize.js'
import { bashRuleMatches, bashTextMatches, pathRuleCouldMatchBelow, pathRuleMatches } from '../rules/match.js'
import { parseRule, type Rule } from '../rules/parse-rule.js'
import { analyzeLine, type CommandFacts, type LineFacts, type Target } from '../shell/analyze.js'
import { copiedTree, isPossibleName } from '../shell/created-names.js'
import type { Confinement, Decision, PolicyContext } from './context.js'
import { isInScope, protectedIn } from './files.js'
import { withGitConfig } from './shell-git-config.js'
import { withRealPaths } from './shell-real-paths.js'
import type { Trace } from './trace.js'

type Access = 'read' | 'edit'

/** How path rules of one list bear on a line's file targets. */
interface PathVerdict {
  /** A rule matches a determined target. */
  rule?: Rule
  /** A rule might match a target the line does not fully show (glob, variable, recursion). */
  uncertain?: Rule
}

function pathVerdict(
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

/** A deny or ask rule matches a command as written or without the options before its subcommand. */
function ruleHits(rule: Rule, command: CommandFacts): boolean {
  return (
    bashRuleMatches(rule, command, true) ||
    (command.ruleText !== undefined && bashTextMatches(rule, command.ruleText))
  )
}

/** Commands whose second word names what they do (`npm test`, `git push`). */
const SUBCOMMAND_TOOLS = new Set([
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'npx',
  'git',
  'cargo',
  'go',
  'docker',
  'kubectl',
  'make',
  'pip',
  'uv',
  'poetry',
  'gradle',
  'mvn',
  'dotnet',
  'deno',
  'gh',
  'terraform',
  'helm',
  'brew',
  'apt',
  'apt-get',
  'just',
])

/** Interpreters that run their standard input when given no script. */
const RUNS_STDIN = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'python',
  'python3',
  'node',
  'perl',
  'ruby',
  'php',
])

/** Commands whose prefix rule would cover anything; only the exact command is suggested. */
const EXACT_ONLY = new Set([
  ...RUNS_STDIN,
  'rm',
  'rmdir',
  'shred',
  'dd',
  'mkfs',
  'chmod',
  'chown',
  'sudo',
  'doas',
  'su',
  'eval',
  'exec',
  'source',
  '.',
  'curl',
  'wget',
  'kill',
  'pkill',
  'killall',
  'xargs',
  'env',
  'find',
])

/** The `Bash(<stable prefix>:*)` an approval card offers for a command. */
export function suggestBashRule(command: CommandFacts): string | undefined {
  const [name, second] = command.words
  if (!name?.literal || name.value === '' || /[()]/.test(name.value)) return undefined
  if (EXACT_ONLY.has(name.value)) {
    // A prefix rule for an interpreter or a destructive command would allow anything: offer this exact command.
    return command.words.every((word) => word.literal) && !/[()]/.test(command.text)
      ? `Bash(${command.text})`
      : undefined
  }
  const words = [name.value]
  if (second?.literal && SUBCOMMAND_TOOLS.has(name.value) && /^[A-Za-z0-9][\w:.-]*$/.test(second.value))
    words.push(second.value)
  return `Bash(${words.join(' ')}:*)`
}

function describeTarget(target: Target): string {
  return target.kind === 'path' ? target.path : target.kind === 'glob' ? target.pattern : target.text
}

function targetInBounds(target: Target, roots: readonly string[]): boolean {
  const path = target.kind === 'path' ? target.path : target.kind === 'glob' ? target.base : undefined
  return path !== undefined && roots.some((root) => isWithin(path, normalizePath(root)))
}

/** Decides a shell line (spec 001; steps in docs/permissions.md). */
export function decideExecute(command: string, cwd: string, context: PolicyContext, trace: Trace): Decision {
  const at = normalizePath(cwd)
  const facts = withGitConfig(withRealPaths(analyzeLine(command, at, context.home), context), at, context)
  trace.step(
    () =>
      `lexed ${facts.commands.length} command(s): ${facts.commands.map((c) => JSON.stringify(c.text)).join(', ')}${facts.complete ? '' : ` (incomplete: ${facts.problems.join('; ')})`}`,
  )
  // 1. Deny rules: a Bash rule matching any command (or the whole line), a path rule any file.
  const line = command.trim().replace(/\s+/g, ' ')
  for (const rule of context.rules.deny) {
    if (rule.tool !== 'Bash') continue
    const hit = facts.commands.find((c) => ruleHits(rule, c))
    if (hit || bashTextMatches(rule, line))
      return trace.done('deny', `a deny rule forbids ${JSON.stringify(hit?.text ?? line)}`, rule)
  }
  const denyPaths = pathVerdict(context.rules.deny, facts, context, true, true)
  if (denyPaths.rule)
    return trace.done('deny', 'a deny rule forbids a file this command reads or writes', denyPaths.rule)
  trace.step('no deny rule matches')
  // 2. Plan mode refuses anything not proven read-only.
  const provenReadOnly = facts.complete && facts.commands.every((c) => c.readOnly)
  if (context.mode === 'plan' && !provenReadOnly) {
    const why = facts.complete ? facts.commands.find((c) => !c.readOnly)?.reason : facts.problems.join('; ')
    return trace.done(
      'deny',
      `plan mode is read-only and this command is not proven read-only (${why ?? 'unknown'})`,
    )
  }
  // 3. Ask rules, and deny rules the line might reach without showing it.
  for (const rule of context.rules.ask) {
    if (rule.tool !== 'Bash') continue
    const hit = facts.commands.find((c) => ruleHits(rule, c))
    if (hit || bashTextMatches(rule, line))
      return trace.done('ask', `an ask rule requires approval for ${JSON.stringify(hit?.text ?? line)}`, rule)
  }
  const askPaths = pathVerdict(context.rules.ask, facts, context, true)
  if (askPaths.rule ?? askPaths.uncertain) {
    return trace.done(
      'ask',
      'an ask rule requires approval for a file this command may touch',
      askPaths.rule ?? askPaths.uncertain,
    )
  }
  if (denyPaths.uncertain) {
    return trace.done(
      'ask',
      'cannot tell whether this command reaches a file a deny rule protects',
      denyPaths.uncertain,
    )
  }
  // A Bash deny rule cannot be checked against what the line does not show: a computed command or
  // script, arguments added by xargs or find -exec, or a part the lexer did not understand.
  const hidden = !facts.complete || facts.commands.some((c) => c.unknownArgs || c.words[0]?.literal === false)
  const bashDeny = hidden ? context.rules.deny.find((rule) => rule.tool === 'Bash') : undefined
  if (bashDeny)
    return trace.done('ask', 'cannot tell whether this line runs a command a deny rule forbids', bashDeny)
  trace.step('no ask rule matches')
  // 4. Protected paths: always ask before a change, whatever the rules; only bypass allows.
  for (const c of facts.commands) {
    // A folder copied by name is judged by the names inside it too (`cp -r vendor out`).
    const created = c.writes.flatMap((target) => copiedTree(target, context.pathFacts, context.projectRoot))
    for (const target of [...c.writes, ...created]) {
      const reason = target.kind === 'path' ? protectedIn(target.path, context) : undefined
      if (reason === undefined) continue
      if (context.mode === 'bypass')
        return trace.done('allow', `bypass mode allows changing a protected path (${reason})`)
      const path = (target as { path: string }).path
      return trace.done(
        'ask',
        isPossibleName(target)
          ? `${JSON.stringify(c.text)} may create ${path} (it copies or extracts names the line does not show), which is protected: ${reason}; changes always ask`
          : `${path} is protected: ${reason}; changes always ask`,
      )
    }
  }
  // 5. A line the lexer did not fully understand is never allowed, in any mode: bash may read it
  // differently (an unclosed `if`, `ls |`), so neither deny rules nor the proof can be trusted.
  if (!facts.complete)
    return trace.done('ask', `the command cannot be fully analyzed (${facts.problems.join('; ')})`)
  // 6. Bypass runs everything no deny rule forbids.
  if (context.mode === 'bypass')
    return trace.done('allow', 'bypass mode allows everything no deny rule forbids')
  return decideCovered(facts, context, trace)
}

function decideCovered(facts: LineFacts, context: PolicyContext, trace: Trace): Decision {
  const allowPathRule = (target: Target, access: Access): Rule | undefined =>
    target.kind === 'path'
      ? context.rules.allow.find(
          (rule) =>
            rule.matcher.type === 'path' && pathRuleMatches(rule, access, target.path, context, false),
        )
      : undefined
  let outside: string | undefined
  let usedRule: Rule | undefined
  let uncovered: CommandFacts | undefined
  // Everything one approval must cover for "always" to hold next time (every part of a compound).
  const needed: Needed[] = []
  let unknownWrite = false
  let fileCommand = false
  let ruleWrites = false
  // Commands an allow rule covered, and whether any other relied on the proof or acceptEdits.
  const ruleCovered: CommandFacts[] = []
  let analysisUsed = false
  const sandbox = context.sandbox
  const excludedPatterns = sandbox?.excludedCommands ?? []
  // A confined command may write the sandbox's writable roots (temp, caches) without asking.
  const sandboxRoots =
    sandbox?.active && sandbox.autoAllow
      ? [context.projectRoot, ...context.additionalDirectories, ...(sandbox.writableRoots ?? [])]
      : undefined
  for (const c of facts.commands) {
    for (const [targets, access] of [
      [c.reads, 'read'],
      [c.writes, 'edit'],
    ] as const) {
      for (const target of targets) {
        if (target.kind === 'unknown') {
          if (access === 'edit') unknownWrite = true
          continue
        }
        const path = target.kind === 'path' ? target.path : target.base
        if (access === 'edit' && sandboxRoots && targetInBounds(target, sandboxRoots)) continue
        if (!isInScope(path, context) && !allowPathRule(target, access)) {
          outside ??= path
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
        !allowPathRule(target, 'edit'),
    )
    const unknownRead = c.reads.some((target) => target.kind === 'unknown')
    const proven = c.readOnly && context.autoAllowReadOnlyBash !== false && !unknownRead
    // A proven read-only command runs on the proof (read-only view, git neutralised) even when a
    // rule covers it too; only a rule's command in `excluded_commands` keeps the rule's way.
    if (proven && !(rule && excludedFromSandbox(c, excludedPatterns))) {
      analysisUsed = true
      continue
    }
    if (rule && !unpermittedWrite) {
      usedRule ??= rule
      ruleCovered.push(c)
      // Its writes are allowed by the mode or the sandbox's bounds, not by the rule: it runs
      // confined so they cannot leave them (issue 34: `Bash(find:*)` and `find . -delete`).
      if (c.writeThrough.some((target) => target.kind !== 'unknown' && !allowPathRule(target, 'edit')))
        ruleWrites = true
      continue
    }
    if (rule && unpermittedWrite) {
      uncovered ??= {
        ...c,
        reason: `it writes ${describeTarget(unpermittedWrite)}, which needs edit permission`,
      }
      needed.push({ kind: 'write', target: unpermittedWrite })
      continue
    }
    if (context.mode === 'acceptEdits' && c.fileCommand) {
      fileCommand = true
      analysisUsed = true
      continue
    }
    uncovered ??= c
    needed.push({ kind: 'command', command: c })
    if (!(context.mode === 'acceptEdits')) {
      for (const target of c.writeThrough) {
        if (
          target.kind !== 'unknown' &&
          isInScope(targetPath(target), context) &&
          !allowPathRule(target, 'edit')
        )
          needed.push({ kind: 'write', target })
      }
    }
  }
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

/** One thing a line needs permission for that no rule grants yet. */
type Needed =
  | { kind: 'command'; command: CommandFacts }
  | { kind: 'write'; target: Target }
  | { kind: 'outside'; target: Target; access: Access }

/**
 * The rules that, granted together, allow this line next time: a `Bash(…)` rule per uncovered
 * command, an `Edit(…)` rule per write no rule permits, a `Read(…)` rule per folder read outside the
 * project and an `Edit(…)` rule per path written there. Nothing when any part has no safe rule (a computed command): an "always"
 * that would still ask, or would cover only the first command, is worse than none.
 */
function suggestionCovering(
  needed: readonly Needed[],
  context: PolicyContext,
  scope: SuggestedRule['scope'],
): SuggestedRule | undefined {
  const rules: string[] = []
  const order: Record<Needed['kind'], number> = { command: 0, write: 1, outside: 2 }
  for (const item of [...needed].sort((a, b) => order[a.kind] - order[b.kind])) {
    const rule = ruleFor(item, context)
    if (rule === undefined) return undefined
    if (!rules.includes(rule)) rules.push(rule)
  }
  const [first] = rules
  if (first === undefined) return undefined
  return rules.length === 1 ? { rule: first, scope } : { rule: first, rules, scope }
}

function ruleFor(item: Needed, context: PolicyContext): string | undefined {
  switch (item.kind) {
    case 'command':
      // `Bash(sh)` would allow whatever any later line pipes into a shell: no "always" for that.
      if (item.command.words.length === 1 && RUNS_STDIN.has(item.command.words[0]?.value ?? ''))
        return undefined
      return suggestBashRule(item.command)
    case 'write': {
      if (item.target.kind === 'unknown') return undefined
      const rel = relativeTo(targetPath(item.target), normalizePath(context.projectRoot))
      if (rel === undefined) return folderRule('Edit', item.target)
      const folder = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : ''
      return folder === '' ? 'Edit(/*)' : `Edit(/${folder}/**)`
    }
    case 'outside':
      if (item.target.kind === 'unknown') return undefined
      // A read outside may take the folder; a write outside (`rm -rf ~`) only the path it names.
      if (item.access === 'edit' && item.target.kind === 'path') return `Edit(/${item.target.path})`
      return folderRule(item.access === 'read' ? 'Read' : 'Edit', item.target)
    default: {
      const unreachable: never = item
      throw new Error(`unknown need ${JSON.stringify(unreachable)}`)
    }
  }
}

/** `Read(//abs/folder/**)`: the folder holding a file, or a glob's base folder. */
function folderRule(tool: 'Read' | 'Edit', target: Exclude<Target, { kind: 'unknown' }>): string {
  const folder = target.kind === 'glob' ? target.base : target.path.slice(0, target.path.lastIndexOf('/'))
  return `${tool}(/${folder.replace(/\/$/, '')}/**)`
}

function targetPath(target: Exclude<Target, { kind: 'unknown' }>): string {
  return target.kind === 'path' ? target.path : target.base
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
