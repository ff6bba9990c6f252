import { normalizePath } from '../paths/normalize.js'
import { bashRuleMatches, bashTextMatches } from '../rules/match.js'
import type { Rule } from '../rules/parse-rule.js'
import { analyzeLine, type CommandFacts } from '../shell/analyze.js'
import { copiedTree, isPossibleName } from '../shell/created-names.js'
import type { Decision, PolicyContext } from './context.js'
import { protectedIn } from './files.js'
import { decideCovered } from './shell-covered.js'
import { withGitConfig } from './shell-git-config.js'
import { pathVerdict } from './shell-path-verdict.js'
import { withRealPaths } from './shell-real-paths.js'
import type { Trace } from './trace.js'

/** A deny or ask rule matches a command as written or without the options before its subcommand. */
function ruleHits(rule: Rule, command: CommandFacts): boolean {
  return (
    bashRuleMatches(rule, command, true) ||
    (command.ruleText !== undefined && bashTextMatches(rule, command.ruleText))
  )
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
