import type { PermissionOption, RequestPermissionOutcome } from '@agentclientprotocol/sdk'
import { type ApprovalDecision, type ApprovalRequest, suggestedRulesText } from '@z-engine/protocol'

/** Option ids we offer; the client answers with one of them. */
type OptionId = 'allowOnce' | 'allowSession' | 'allowProject' | 'deny'

/**
 * The choices of an approval card in ACP terms. "Always" needs the policy's suggested rule; a
 * target outside the project only gets the session scope, and a protected path gets no rule at all.
 */
export function permissionOptions(request: ApprovalRequest): PermissionOption[] {
  const options: PermissionOption[] = [{ optionId: 'allowOnce', name: 'Allow once', kind: 'allow_once' }]
  const suggestion = request.suggestion
  if (suggestion) {
    options.push({
      optionId: 'allowSession',
      name: `Always allow in this session (${suggestedRulesText(suggestion)})`,
      kind: 'allow_always',
    })
    if (suggestion.scope === 'project')
      options.push({
        optionId: 'allowProject',
        name: `Always allow in this project (${suggestedRulesText(suggestion)})`,
        kind: 'allow_always',
      })
  }
  options.push({ optionId: 'deny', name: 'Deny', kind: 'reject_once' })
  return options
}

/** The engine decision for the client's answer; a cancelled or unknown answer denies (fail closed). */
export function decisionFor(request: ApprovalRequest, outcome: RequestPermissionOutcome): ApprovalDecision {
  if (outcome.outcome !== 'selected')
    return { type: 'deny', feedback: 'The request was cancelled in the editor.' }
  const offered = permissionOptions(request).some((option) => option.optionId === outcome.optionId)
  const rule = request.suggestion?.rule
  const chosen = (offered ? outcome.optionId : 'deny') as OptionId
  switch (chosen) {
    case 'allowOnce':
      return { type: 'allowOnce' }
    case 'allowSession':
      return rule !== undefined ? { type: 'allowSession', rule } : { type: 'deny' }
    case 'allowProject':
      return rule !== undefined ? { type: 'allowProject', rule } : { type: 'deny' }
    case 'deny':
      return { type: 'deny' }
    default: {
      const unreachable: never = chosen
      return unreachable
    }
  }
}
