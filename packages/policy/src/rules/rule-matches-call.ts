import type { Action } from '../action.js'
import { decide } from '../decide/pipeline.js'
import type { Rule } from './parse-rule.js'

const EDIT_TOOLS = new Set(['edit', 'write', 'multiedit', 'notebookedit'])

/** Where the call's paths resolve: its agent's root and the user's home. */
export interface CallBases {
  projectRoot: string
  home: string
}

/**
 * Whether one permission rule matches a tool call, as a hook's `if` condition reads it: the rule
 * names the call's tool (an `Edit` rule every file-changing tool, an `mcp__server` rule that
 * server's tools) and its specifier matches the call the way a deny rule would, so `Bash(git *)`
 * matches any command of `ls && git push` and `FOO=1 git push`, and `Edit(src/**)` the paths edited.
 */
export function ruleMatchesCall(rule: Rule, toolName: string, action: Action, bases: CallBases): boolean {
  if (!namesTool(rule, toolName)) return false
  // The deny step of the policy is the one matcher of rules against calls; a rule alone in the
  // deny list decides the call exactly when it matches it.
  const decision = decide(
    action,
    {
      mode: 'default',
      rules: { allow: [], ask: [], deny: [rule], errors: [] },
      projectRoot: bases.projectRoot,
      additionalDirectories: [],
      home: bases.home,
    },
    { toolName },
  )
  return decision.decision === 'deny' && decision.rule !== undefined
}

function namesTool(rule: Rule, toolName: string): boolean {
  const wanted = rule.tool.toLowerCase()
  const tool = toolName.toLowerCase()
  if (wanted === tool) return true
  if (EDIT_TOOLS.has(wanted) && EDIT_TOOLS.has(tool)) return true
  if (rule.matcher.type === 'mcp') return tool.startsWith('mcp__')
  return false
}
