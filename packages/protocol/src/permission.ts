/** Permission modes (spec 001). `bypassPermissions` is accepted on input as an alias of `bypass`. */
export type PermissionMode = 'default' | 'acceptEdits' | 'plan' | 'bypass'

/** Every permission mode, in the order the UI cycles through them. */
export const PERMISSION_MODES: readonly PermissionMode[] = ['default', 'acceptEdits', 'plan', 'bypass']

/** What the policy says about one call. */
export type PermissionDecisionKind = 'allow' | 'ask' | 'deny'

/** A rule a user can grant from an approval card, and where it would be kept. */
export interface SuggestedRule {
  /** The rule text, e.g. `Bash(npm test:*)`. */
  rule: string
  /** `session` when the target is outside the project (never persisted). */
  scope: 'session' | 'project'
}

/** A preview shown on an approval card. */
export type Preview =
  | { type: 'diff'; path: string; unifiedDiff: string }
  | { type: 'command'; command: string; cwd: string }
  | { type: 'text'; text: string }

/** An approval the user must answer; every ask of one batch is requested together. */
export interface ApprovalRequest {
  id: string
  toolUseId: string
  toolName: string
  /** The agent asking (subagents' cards are labelled with their id); absent for the main agent. */
  agentId?: string
  title: string
  /** Why the policy asked. */
  reason: string
  preview?: Preview
  /** The rule "Always allow" would add; absent for protected paths. */
  suggestion?: SuggestedRule
}

/** The user's answer to one approval. */
export type ApprovalDecision =
  | { type: 'allowOnce' }
  | { type: 'allowSession'; rule: string }
  | { type: 'allowProject'; rule: string }
  | { type: 'deny'; feedback?: string }
