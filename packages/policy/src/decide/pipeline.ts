import type { Action } from '../action.js'
import type { Rule } from '../rules/parse-rule.js'
import type { UnparsedRule } from '../rules/rule-set.js'
import { admitUrl } from '../url/admit-url.js'
import type { DecideOptions, Decision, PolicyContext } from './context.js'
import { decideExecute } from './execute.js'
import { decideFiles } from './files.js'
import { Trace } from './trace.js'
import { withCheckRules, withCheckSuggestion } from './verify-check.js'

/**
 * The policy's one entry: what to do with an action. Pure and synchronous; never throws. The order
 * of the steps is documented in docs/permissions.md: deny rules, plan mode, ask rules, protected
 * paths, bypass, allow rules, scope, and the mode's default.
 */
export function decide(action: Action, context: PolicyContext, options: DecideOptions = {}): Decision {
  const trace = new Trace(options.explain === true)
  trace.step(() => `mode ${context.mode}; action ${action.type}`)
  try {
    const decision = decideAction(action, context, options, trace)
    if (decision.decision === 'deny') return decision
    const unparsed = context.rules.unparsed?.find((entry) => unparsedApplies(entry, action, options))
    if (unparsed === undefined) return decision
    const { error, kind } = unparsed
    return trace.done(
      'ask',
      `the ${kind} rule ${JSON.stringify(error.text)} from ${error.source} could not be parsed (${error.message}); until it is fixed, calls it may have covered ask`,
    )
  } catch (error) {
    // A bug in the policy must never turn into an allow.
    return trace.done(
      'ask',
      `the policy failed on this call (${error instanceof Error ? error.message : String(error)}); asking instead`,
    )
  }
}

function decideAction(
  action: Action,
  context: PolicyContext,
  options: DecideOptions,
  trace: Trace,
): Decision {
  switch (action.type) {
    case 'read':
      return decideFiles('read', action.paths, context, options, trace)
    case 'write':
      return decideFiles('write', action.paths, context, options, trace)
    case 'execute': {
      if (action.check === undefined) return decideExecute(action.command, action.cwd, context, trace)
      const checked = decideExecute(action.command, action.cwd, withCheckRules(context, action.check), trace)
      return withCheckSuggestion(checked, action.check)
    }
    case 'fetch': {
      const admitted = admitUrl(
        action.url,
        context.allowedPrivateHosts ? { allowedPrivateHosts: context.allowedPrivateHosts } : {},
      )
      if (!admitted.ok) return trace.done('deny', admitted.reason)
      trace.step(() => `URL admitted (host ${admitted.host})`)
      const host = admitted.host
      return decideByRules('WebFetch', (rule) => domainMatches(rule, host), true, context, options, trace, {
        rule: `WebFetch(domain:${host})`,
        scope: 'project',
      })
    }
    case 'webSearch':
      return decideByRules('WebSearch', () => false, true, context, options, trace, {
        rule: 'WebSearch',
        scope: 'project',
      })
    case 'startAgent': {
      const type = action.agentType
      return decideByRules(
        'Agent',
        (rule) => nameMatches(rule, type),
        true,
        context,
        options,
        trace,
        undefined,
        'starting a subagent needs no approval (its calls pass the same gate)',
      )
    }
    case 'loadSkill': {
      const invocation = skillInvocation(action.name, action.args)
      return decideByRules(
        'Skill',
        (rule) => skillRuleMatches(rule, action.name, invocation),
        true,
        context,
        options,
        trace,
        undefined,
        'loading a skill needs no approval',
      )
    }
    case 'mcpCall': {
      const matches = (rule: Rule): boolean =>
        rule.matcher.type === 'mcp' &&
        (rule.matcher.server === '*' || rule.matcher.server === action.server) &&
        (rule.matcher.tool === undefined || rule.matcher.tool === action.tool)
      const readOnly = action.readOnly === true
      const free = action.resource === true ? 'reading MCP resources needs no approval' : undefined
      return decideByRules(
        `mcp__${action.server}__${action.tool}`,
        matches,
        readOnly,
        context,
        options,
        trace,
        action.resource ? undefined : { rule: `mcp__${action.server}__${action.tool}`, scope: 'project' },
        free,
      )
    }
    case 'other': {
      if (action.malformed !== undefined)
        return decideMalformed(action.toolName, action.malformed, context, options, trace)
      const free = action.readOnly ? `${action.toolName} changes nothing and needs no approval` : undefined
      return decideByRules(
        action.toolName,
        () => false,
        action.readOnly,
        context,
        options,
        trace,
        { rule: action.toolName, scope: 'project' },
        free,
      )
    }
    default: {
      const unreachable: never = action
      return trace.done('ask', `unknown action ${JSON.stringify(unreachable)}`)
    }
  }
}

/**
 * The pipeline for actions without paths: deny rules, plan mode (refuses what is not read-only),
 * ask rules, bypass, allow rules, then `freeReason` (allowed without asking) or an ask.
 */
function decideByRules(
  tool: string,
  specific: (rule: Rule) => boolean,
  readOnly: boolean,
  context: PolicyContext,
  options: DecideOptions,
  trace: Trace,
  suggestion: Decision['suggestion'],
  freeReason?: string,
): Decision {
  const matches = (rule: Rule): boolean =>
    (rule.matcher.type === 'any' && namesTool(rule, tool, options)) || specific(rule)
  const deny = context.rules.deny.find(matches)
  if (deny) return trace.done('deny', `a deny rule forbids ${tool}`, deny)
  if (context.mode === 'plan' && !readOnly)
    return trace.done('deny', `plan mode is read-only and ${options.toolName ?? tool} may change state`)
  const ask = context.rules.ask.find(matches)
  if (ask) return trace.done('ask', `an ask rule requires approval for ${tool}`, ask)
  if (context.mode === 'bypass')
    return trace.done('allow', 'bypass mode allows everything no deny rule forbids')
  const allow = context.rules.allow.find(matches)
  if (allow) return trace.done('allow', `an allow rule covers ${tool}`, allow)
  if (freeReason) return trace.done('allow', freeReason)
  return trace.done('ask', `${options.toolName ?? tool} needs approval`, undefined, suggestion)
}

/**
 * A call whose input the tool could not map (a non-string path, a missing field): its deny rules
 * apply; otherwise it asks in every mode (bypass included) and is refused in plan mode.
 */
function decideMalformed(
  tool: string,
  problem: string,
  context: PolicyContext,
  options: DecideOptions,
  trace: Trace,
): Decision {
  const deny = context.rules.deny.find(
    (rule) => rule.matcher.type === 'any' && namesTool(rule, tool, options),
  )
  if (deny) return trace.done('deny', `a deny rule forbids ${tool}`, deny)
  const what = `the input of ${options.toolName ?? tool} is malformed (${problem})`
  if (context.mode === 'plan') return trace.done('deny', `${what}; plan mode refuses it`)
  return trace.done('ask', `${what}; asking instead of guessing what it would do`)
}

/** Whether a bare rule names this tool (tool names compare without case: `bash` is `Bash`). */
function namesTool(rule: Rule, tool: string, options: DecideOptions): boolean {
  const name = rule.tool.toLowerCase()
  return (
    name === tool.toLowerCase() || (options.toolName !== undefined && name === options.toolName.toLowerCase())
  )
}

/** The tools whose rules guard an action (what an unparseable rule for that tool may have covered). */
function toolsOf(action: Action, options: DecideOptions): string[] {
  const own = options.toolName === undefined ? [] : [options.toolName]
  switch (action.type) {
    case 'read':
      return [...own, 'Read']
    case 'write':
      return [...own, 'Edit', 'Write', 'MultiEdit', 'NotebookEdit']
    case 'execute':
      // Read and Edit rules also hold for the files shell commands read and write.
      return [
        ...own,
        'Bash',
        'Read',
        'Edit',
        'Write',
        'MultiEdit',
        'NotebookEdit',
        ...(action.check !== undefined ? ['Verify'] : []),
      ]
    case 'fetch':
      return [...own, 'WebFetch']
    case 'webSearch':
      return [...own, 'WebSearch']
    case 'startAgent':
      return [...own, 'Agent']
    case 'loadSkill':
      return [...own, 'Skill']
    case 'mcpCall':
      return [...own, `mcp__${action.server}__${action.tool}`]
    case 'other':
      return [...own, action.toolName]
    default: {
      const unreachable: never = action
      return [String(unreachable)]
    }
  }
}

/** Whether an unparseable deny or ask rule may have covered this action (fail closed). */
function unparsedApplies(entry: UnparsedRule, action: Action, options: DecideOptions): boolean {
  if (entry.tool === undefined) return true
  const wanted = entry.tool.toLowerCase()
  return toolsOf(action, options).some((tool) => {
    const name = tool.toLowerCase()
    return name === wanted || (wanted.startsWith('mcp__') && name.startsWith(`${wanted}__`))
  })
}

function domainMatches(rule: Rule, host: string): boolean {
  if (rule.matcher.type !== 'domain') return false
  const domain = rule.matcher.domain
  // `example.com` covers its subdomains; `*.example.com` only them.
  if (domain.startsWith('*.')) return host.endsWith(domain.slice(1))
  return host === domain || host.endsWith(`.${domain}`)
}

function nameMatches(rule: Rule, name: string): boolean {
  return rule.matcher.type === 'name' && (rule.matcher.name === name || rule.matcher.name === '*')
}

/** A skill call as a rule reads it: its name, then its arguments with whitespace collapsed. */
function skillInvocation(name: string, args: string | undefined): string {
  const rest = args?.trim().replace(/\s+/g, ' ') ?? ''
  return rest === '' ? name : `${name} ${rest}`
}

/**
 * Claude Code's Skill rules: `Skill(name)` is that skill with any arguments, `Skill(name *)` (a
 * glob; a trailing ` *` also matches no arguments) and `Skill(name:*)` (a prefix) read the
 * arguments too, so `Skill(deploy prod*)` can be told from `Skill(deploy staging)`.
 */
function skillRuleMatches(rule: Rule, name: string, invocation: string): boolean {
  if (rule.matcher.type !== 'name') return false
  const spec = rule.matcher.name.replace(/\s+/g, ' ')
  if (spec === '*' || spec === name) return true
  if (spec.endsWith(':*')) {
    const prefix = spec.slice(0, -2).trim()
    return invocation === prefix || invocation.startsWith(`${prefix} `)
  }
  if (!spec.includes('*') && !spec.includes(' ')) return false
  const parts = spec.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
  let source = parts.join('.*')
  if (source.endsWith(' .*')) source = `${source.slice(0, -3)}(?: .*)?`
  return new RegExp(`^${source}$`, 's').test(invocation)
}
