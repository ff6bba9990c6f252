import type { EventEnvelope } from '@z-engine/protocol'

/** One denied tool call, in Claude Code's `permission_denials` shape plus the reason. */
export interface PermissionDenial {
  tool_name: string
  tool_use_id: string
  tool_input: Record<string, unknown>
  reason: string
  /** The subagent whose call it was; absent for the main agent. */
  agent_id?: string
}

/** What the denials of one turn amount to. */
export interface TurnDenials {
  denials: PermissionDenial[]
  /** Denied calls that would have changed something (the tool did not call them read-only). */
  mutating: number
}

/**
 * Collects the denied calls of each turn from the event stream. No I/O. A call's input comes from
 * the assistant message that made it, its reason from the approval that was asked (a headless run
 * denies every ask) or else from the denial text the model read (a deny rule, plan mode, a hook).
 */
export function createDenialTracker(): {
  observe(envelope: EventEnvelope): void
  /** The denials since the last call, and resets. */
  take(): TurnDenials
  /** Every denial of the run so far. */
  all(): PermissionDenial[]
} {
  const inputs = new Map<string, Record<string, unknown>>()
  const asked = new Map<string, string>()
  let pending: Array<{ denial: PermissionDenial; readOnly: boolean | undefined }> = []
  const every: PermissionDenial[] = []
  const withInput = (denial: PermissionDenial): PermissionDenial => ({
    ...denial,
    tool_input: inputs.get(denial.tool_use_id) ?? denial.tool_input,
  })
  return {
    observe(envelope) {
      const event = envelope.event
      switch (event.type) {
        case 'messageRecorded':
          if (event.message.role !== 'assistant') return
          for (const block of event.message.content)
            if (block.type === 'tool_use') inputs.set(block.id, block.input as Record<string, unknown>)
          return
        case 'approvalRequested':
          asked.set(event.request.toolUseId, event.request.reason)
          return
        case 'toolFinished': {
          if (event.status !== 'denied') return
          const askedWhy = asked.get(event.toolUseId)
          const reason =
            askedWhy !== undefined
              ? `${askedWhy}; no one could approve it (headless)`
              : (event.output ?? event.summary ?? 'denied').replace(/^Permission denied: /, '')
          const denial: PermissionDenial = {
            tool_name: event.toolName,
            tool_use_id: event.toolUseId,
            tool_input: {},
            reason,
            ...(envelope.agentId !== undefined ? { agent_id: envelope.agentId } : {}),
          }
          pending.push({ denial, readOnly: event.readOnly })
          every.push(denial)
          return
        }
        default:
          return
      }
    },
    take() {
      const taken = pending
      pending = []
      return {
        denials: taken.map((item) => withInput(item.denial)),
        // Unknown counts as a change: failing closed means reporting it, not hiding it.
        mutating: taken.filter((item) => item.readOnly !== true && item.denial.agent_id === undefined).length,
      }
    },
    all: () => every.map(withInput),
  }
}
