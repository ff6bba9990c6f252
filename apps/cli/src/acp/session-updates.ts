import type { SessionUpdate, ToolCallContent, ToolKind } from '@agentclientprotocol/sdk'
import type { ApprovalRequest, EventEnvelope, Preview, ToolStatus } from '@z-engine/protocol'

/** Output a tool call update carries at most (ACP replaces content on each update). */
const OUTPUT_CHARS = 8000

const KINDS: Record<string, ToolKind> = {
  Read: 'read',
  Write: 'edit',
  Edit: 'edit',
  MultiEdit: 'edit',
  NotebookEdit: 'edit',
  Glob: 'search',
  Grep: 'search',
  Bash: 'execute',
  JobOutput: 'read',
  JobKill: 'execute',
  WebFetch: 'fetch',
  WebSearch: 'fetch',
  ExitPlanMode: 'switch_mode',
  LSP: 'search',
}

/** The ACP kind of a tool (editors pick icons and grouping from it). */
export function toolKind(toolName: string): ToolKind {
  return KINDS[toolName] ?? 'other'
}

function textContent(text: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text } }
}

/** An approval card's preview as tool call content (a command, a unified diff, or text). */
export function previewContent(preview: Preview | undefined): ToolCallContent[] {
  if (!preview) return []
  switch (preview.type) {
    case 'command':
      return [textContent(`$ ${preview.command}\n(in ${preview.cwd})`)]
    case 'diff':
      return [textContent(`${preview.path}\n${preview.unifiedDiff}`)]
    case 'text':
      return [textContent(preview.text)]
    default: {
      const unreachable: never = preview
      return unreachable
    }
  }
}

function finishedStatus(status: ToolStatus): 'completed' | 'failed' {
  return status === 'ok' ? 'completed' : 'failed'
}

/**
 * Turns one prompt's engine events into ACP session updates. It remembers which tool calls the
 * client has heard of (a call asked about is announced as `pending` before it starts; a denied call
 * that never started is announced when it finishes) and each call's output so far.
 */
export class SessionUpdateMapper {
  readonly #announced = new Set<string>()
  readonly #output = new Map<string, string>()

  /** The `tool_call` to send before asking permission for a card. */
  announceApproval(request: ApprovalRequest): SessionUpdate[] {
    if (this.#announced.has(request.toolUseId)) return []
    this.#announced.add(request.toolUseId)
    return [
      {
        sessionUpdate: 'tool_call',
        toolCallId: request.toolUseId,
        title: request.title,
        kind: toolKind(request.toolName),
        status: 'pending',
        content: previewContent(request.preview),
      },
    ]
  }

  /** The updates for one event; most events have none. Subagents' streamed text is left out. */
  map(envelope: EventEnvelope): SessionUpdate[] {
    const event = envelope.event
    const main = envelope.agentId === undefined
    switch (event.type) {
      case 'textDelta':
        return main
          ? [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.delta } }]
          : []
      case 'thinkingDelta':
        return main
          ? [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.delta } }]
          : []
      case 'toolStarted': {
        const known = this.#announced.has(event.toolUseId)
        this.#announced.add(event.toolUseId)
        if (known)
          return [
            {
              sessionUpdate: 'tool_call_update',
              toolCallId: event.toolUseId,
              title: event.title,
              status: 'in_progress',
              rawInput: event.input,
            },
          ]
        return [
          {
            sessionUpdate: 'tool_call',
            toolCallId: event.toolUseId,
            title: event.title,
            kind: toolKind(event.toolName),
            status: 'in_progress',
            rawInput: event.input,
          },
        ]
      }
      case 'toolProgress': {
        const progress = event.progress
        const piece = progress.type === 'output' ? progress.text : `${progress.message}\n`
        const output = ((this.#output.get(event.toolUseId) ?? '') + piece).slice(-OUTPUT_CHARS)
        this.#output.set(event.toolUseId, output)
        return [
          { sessionUpdate: 'tool_call_update', toolCallId: event.toolUseId, content: [textContent(output)] },
        ]
      }
      case 'toolFinished': {
        const output = this.#output.get(event.toolUseId) ?? ''
        const summary = event.summary !== undefined && event.summary !== '' ? event.summary : ''
        const text = [output.trimEnd(), summary].filter((part) => part !== '').join('\n')
        const content = text !== '' ? [textContent(text)] : []
        this.#output.delete(event.toolUseId)
        if (!this.#announced.has(event.toolUseId)) {
          this.#announced.add(event.toolUseId)
          return [
            {
              sessionUpdate: 'tool_call',
              toolCallId: event.toolUseId,
              title: event.toolName,
              kind: toolKind(event.toolName),
              status: finishedStatus(event.status),
              content,
            },
          ]
        }
        return [
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: event.toolUseId,
            status: finishedStatus(event.status),
            content,
          },
        ]
      }
      case 'todosUpdated':
        return [
          {
            sessionUpdate: 'plan',
            entries: event.todos.map((todo) => ({
              content: todo.content,
              priority: 'medium',
              status: todo.status,
            })),
          },
        ]
      case 'modeChanged':
        return [{ sessionUpdate: 'current_mode_update', currentModeId: event.mode }]
      case 'commandOutput':
        return [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.markdown } }]
      case 'notice':
        return event.level === 'info'
          ? []
          : [
              {
                sessionUpdate: 'agent_message_chunk',
                content: { type: 'text', text: `\n⚠ ${event.message}\n` },
              },
            ]
      // Bookkeeping an editor does not show: whole parts (their deltas stream above), the journal,
      // approvals (asked through request_permission), usage, agents, jobs and decision events.
      case 'sessionOpened':
      case 'turnStarted':
      case 'turnFinished':
      case 'usageUpdated':
      case 'retrying':
      case 'textStart':
      case 'textEnd':
      case 'thinkingStart':
      case 'thinkingEnd':
      case 'messageRecorded':
      case 'steeringQueued':
      case 'approvalRequested':
      case 'approvalResolved':
      case 'questionAsked':
      case 'questionAnswered':
      case 'planProposed':
      case 'planResolved':
      case 'modelChanged':
      case 'titleChanged':
      case 'agentUpdated':
      case 'jobUpdated':
      case 'checkRecorded':
      case 'checkpointCreated':
      case 'rewound':
      case 'rewindPreviewed':
      case 'rewindUndone':
      case 'compactionStarted':
      case 'compacted':
      case 'trustRequired':
      case 'routeChosen':
      case 'decisionTraced':
      case 'taskViewApplied':
      case 'completionClaimUnchecked':
      case 'suggested':
      case 'suggestionResolved':
      case 'turnToneJudged':
      case 'urgencyScored':
        return []
      default: {
        const unreachable: never = event
        return unreachable
      }
    }
  }
}
