import { parseRule, ruleMatchesCall } from '@z-engine/policy'
import { actionFor } from '@z-engine/tools'

/** Where a tool call's paths resolve, for a hook's `if` condition. */
export interface HookCallContext {
  projectRoot: string
  cwd: string
  home: string
}

/** Whether a hook's `if` lets it run for this call, or why the condition cannot be read. */
export type HookConditionResult = { ok: true; matches: boolean } | { ok: false; error: string }

/**
 * Evaluates a hook's `if` (Claude Code's permission-rule syntax, `Bash(git *)`, `Edit(src/**)`)
 * against a tool call: the rule must name the call's tool and match its input as a permission rule
 * would (each command of a compound line, paths resolved against the agent's cwd).
 */
export function hookConditionMatches(
  condition: string,
  toolName: string,
  toolInput: unknown,
  context: HookCallContext,
): HookConditionResult {
  const parsed = parseRule(condition, 'hook condition')
  if (!parsed.ok) return { ok: false, error: `its "if" ${JSON.stringify(condition)} ${parsed.error.message}` }
  const action = actionFor(toolName, toolInput, context)
  return {
    ok: true,
    matches: ruleMatchesCall(parsed.rule, toolName, action, {
      projectRoot: context.projectRoot,
      home: context.home,
    }),
  }
}
