import { arr, enums, type Infer, obj, str, tagged, variant } from './schema/builder.js'

/** Every permission mode, in the order the UI cycles through them. */
export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'bypass'] as const

/** Schema of {@link PermissionMode}. */
export const PermissionModeSchema = enums(PERMISSION_MODES)
/** Permission modes (spec 001). `bypassPermissions` is accepted on input as an alias of `bypass`. */
export type PermissionMode = Infer<typeof PermissionModeSchema>

/** Names accepted from outside for a mode, beyond the canonical ones. */
export const PERMISSION_MODE_ALIASES: Readonly<Record<string, PermissionMode>> = Object.freeze({
  bypassPermissions: 'bypass',
})

/**
 * Reads a mode that arrived from outside (flag, settings, command): the canonical names plus the
 * aliases (`bypassPermissions` is `bypass`). Unknown names give `undefined`.
 */
export function parsePermissionMode(value: unknown): PermissionMode | undefined {
  if (typeof value !== 'string') return undefined
  const alias = Object.hasOwn(PERMISSION_MODE_ALIASES, value) ? PERMISSION_MODE_ALIASES[value] : undefined
  const canonical = alias ?? value
  return (PERMISSION_MODES as readonly string[]).includes(canonical)
    ? (canonical as PermissionMode)
    : undefined
}

/** Schema of {@link PermissionDecisionKind}. */
export const PermissionDecisionKindSchema = enums(['allow', 'ask', 'deny'])
/** What the policy says about one call. */
export type PermissionDecisionKind = Infer<typeof PermissionDecisionKindSchema>

/** Schema of {@link SuggestedRule}. */
export const SuggestedRuleSchema = obj(
  {
    rule: str({ minLength: 1, description: 'The rule text, e.g. `Bash(npm test:*)`.' }),
    scope: enums(['session', 'project'], {
      description: '`session` when the target is outside the project (never persisted).',
    }),
  },
  {
    rules: arr(str({ minLength: 1 }), {
      minItems: 2,
      description:
        'Every rule an "always" answer grants when one cannot cover the call (`npm test && npm run build`); `rule` is the first.',
    }),
  },
)
/** A rule a user can grant from an approval card, and where it may be kept. */
export type SuggestedRule = Infer<typeof SuggestedRuleSchema>

/** The rules a suggestion grants, as a card names them: `Bash(npm test:*), Bash(npm run:*)`. */
export function suggestedRulesText(suggestion: SuggestedRule): string {
  return (suggestion.rules ?? [suggestion.rule]).join(', ')
}

/** Schema of {@link Preview}. */
export const PreviewSchema = tagged([
  variant('diff', { path: str(), unifiedDiff: str() }),
  variant('command', { command: str(), cwd: str() }),
  variant('text', { text: str() }),
])
/** A preview shown on an approval card. */
export type Preview = Infer<typeof PreviewSchema>

/** Schema of {@link ApprovalRequest}. */
export const ApprovalRequestSchema = obj(
  {
    id: str({ minLength: 1 }),
    toolUseId: str(),
    toolName: str(),
    title: str({ description: 'The card question, e.g. "Allow Bash to run npm test?"' }),
    reason: str({ description: 'Why the policy asked.' }),
  },
  {
    batchId: str({
      description: 'Every ask of one tool batch shares it; the batch runs when all are answered.',
    }),
    agentId: str({
      description: 'The subagent asking (its cards are labelled with it); absent for the main agent.',
    }),
    preview: PreviewSchema,
    suggestion: SuggestedRuleSchema,
  },
)
/** An approval the user must answer; every ask of one batch is requested together. */
export type ApprovalRequest = Infer<typeof ApprovalRequestSchema>

/** Schema of {@link ApprovalDecision}. */
export const ApprovalDecisionSchema = tagged([
  variant('allowOnce'),
  variant('allowSession', { rule: str({ minLength: 1 }) }),
  variant('allowProject', { rule: str({ minLength: 1 }) }),
  variant('deny', {}, { feedback: str() }),
])
/** The user's answer to one approval (AllowOnce, AllowSession{rule}, AllowProject{rule}, Deny{feedback}). */
export type ApprovalDecision = Infer<typeof ApprovalDecisionSchema>
