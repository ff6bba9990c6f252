import type { ApprovalDecision, ApprovalRequest } from '@z-engine/protocol'
import type { BatchDeps } from './batch-types.js'
import { CANCELLED_TEXT, type CallState, settle, USER_DENIED_TEXT } from './call-state.js'

/**
 * Settles what will not run (settled calls, unanswered or denied approvals) and grants the rules
 * "always" answers carry; an Ask the decision seam raised grants nothing (it allows this call only).
 */
export async function applyAnswers(
  states: readonly CallState[],
  answers: ReadonlyMap<string, ApprovalDecision>,
  deps: BatchDeps,
  signal: AbortSignal,
): Promise<void> {
  for (const state of states) {
    const { prepared } = state
    if (prepared.kind === 'settled') {
      await settle(state, prepared.status, prepared.text, deps)
      continue
    }
    if (!prepared.approval) continue
    const answer = answers.get(prepared.approval.id)
    if (!answer || signal.aborted) {
      await settle(state, 'cancelled', CANCELLED_TEXT, deps)
      continue
    }
    switch (answer.type) {
      case 'deny': {
        const feedback = answer.feedback?.trim()
        const text = feedback ? `${USER_DENIED_TEXT} Feedback from the user: ${feedback}` : USER_DENIED_TEXT
        const fallback = prepared.ifDenied
        if (fallback === undefined) {
          await settle(state, 'denied', text, deps)
          break
        }
        // The parts no one had to approve still run; the result says which the user left out.
        const left = `Not run: ${fallback.asked.join('; ')}. ${text}`
        state.prepared = {
          kind: 'ready',
          tool: prepared.tool,
          input: fallback.input,
          title: fallback.title,
          additionalContext: [prepared.additionalContext, left]
            .filter((part) => part !== undefined)
            .join('\n\n'),
          ...(fallback.confinement !== undefined ? { confinement: fallback.confinement } : {}),
        }
        break
      }
      // An Ask the decision seam raised has nothing to persist: "always" answers allow this call only.
      case 'allowSession':
        if (!prepared.escalated)
          for (const rule of grantedRules(answer.rule, prepared.approval))
            await deps.grantRule(rule, 'session')
        break
      case 'allowProject':
        if (!prepared.escalated)
          for (const rule of grantedRules(answer.rule, prepared.approval))
            await deps.grantRule(rule, 'project')
        break
      case 'allowOnce':
        break
      default: {
        const unreachable: never = answer
        throw new Error(`unknown approval ${JSON.stringify(unreachable)}`)
      }
    }
  }
}

/**
 * The rules an "always" answer grants: the suggestion's whole set when the answer took the
 * suggested rule (a compound line needs one per command), else just the rule the host sent.
 */
function grantedRules(rule: string, approval: ApprovalRequest): readonly string[] {
  const suggestion = approval.suggestion
  return suggestion?.rule === rule && suggestion.rules !== undefined ? suggestion.rules : [rule]
}
