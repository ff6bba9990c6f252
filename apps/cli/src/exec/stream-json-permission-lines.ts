import type { LineTable } from './stream-json-lines.js'

/** Approvals asked and how each was answered. */
export const PERMISSION_LINES = {
  approvalRequested: (event, { common, state }) => {
    const request = event.request
    state.asked.add(request.toolUseId)
    return [
      {
        type: 'permission_request',
        ...common,
        approval_id: request.id,
        tool_use_id: request.toolUseId,
        tool_name: request.toolName,
        title: request.title,
        reason: request.reason,
        ...(request.preview ? { preview: { ...request.preview } } : {}),
        ...(request.suggestion ? { suggested_rule: request.suggestion.rule } : {}),
      },
    ]
  },
  approvalResolved: (event, { common }) => {
    const decision = event.decision
    const base = { type: 'permission_decision' as const, ...common, approval_id: event.approvalId }
    switch (decision.type) {
      case 'allowOnce':
        return [{ ...base, decision: 'allow', scope: 'once' }]
      case 'allowSession':
        return [{ ...base, decision: 'allow', scope: 'session', rule: decision.rule }]
      case 'allowProject':
        return [{ ...base, decision: 'allow', scope: 'project', rule: decision.rule }]
      case 'deny':
        return [
          {
            ...base,
            decision: 'deny',
            scope: 'once',
            ...(decision.feedback !== undefined ? { feedback: decision.feedback } : {}),
          },
        ]
      default: {
        const unreachable: never = decision
        return unreachable
      }
    }
  },
} satisfies Partial<LineTable>
