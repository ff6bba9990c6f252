import type { PermissionMode } from '@z-engine/protocol'
import { type Action, buildRuleSet, type Decision, decide, type PolicyContext } from '../src/index.js'

export const ROOT = '/proj'
export const HOME = '/home/u'

/** A context with the given mode and rules (source "test"). */
export function context(
  mode: PermissionMode = 'default',
  rules: { allow?: string[]; deny?: string[]; ask?: string[] } = {},
  extra: Partial<PolicyContext> = {},
): PolicyContext {
  return {
    mode,
    rules: buildRuleSet([{ source: 'test', ...rules }]),
    projectRoot: ROOT,
    additionalDirectories: ['/extra'],
    home: HOME,
    ...extra,
  }
}

/** Decides a Bash line run in the project root. */
export function bash(command: string, ctx: PolicyContext = context()): Decision {
  return decide({ type: 'execute', command, cwd: ROOT }, ctx, { toolName: 'Bash' })
}

/** Decides any action. */
export function act(action: Action, ctx: PolicyContext = context(), toolName?: string): Decision {
  return decide(action, ctx, toolName ? { toolName } : {})
}
