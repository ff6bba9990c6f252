import type { ContentBlock, EventEnvelope, TurnOutcome, Usage, VerificationBadge } from '@z-engine/protocol'
import { EXIT } from '../cli-error.js'
import { createDenialTracker } from './denials.js'
import type { StreamJsonEvent, StreamOutcome, StreamUsage, StreamVerification } from './stream-json-types.js'
import { turnExitCode } from './turn-exit-code.js'

/** What a tool call's `toolFinished` said, held until its result message arrives. */
interface FinishedCall {
  name: string
  status: 'ok' | 'error' | 'denied' | 'cancelled'
  durationMs: number
  summary?: string
}

/**
 * Maps protocol envelopes to stream-json lines. No I/O: the only state is what a line needs from an
 * earlier event (a tool call's status until its result message, the turn's last assistant text for
 * `final`), so the same envelopes always map to the same lines.
 */
export function createStreamJsonMapper(): (envelope: EventEnvelope) => StreamJsonEvent[] {
  const finished = new Map<string, FinishedCall>()
  const denials = createDenialTracker()
  const asked = new Set<string>()
  let lastAssistantText = ''

  return (envelope) => {
    denials.observe(envelope)
    const common = {
      session_id: envelope.sessionId,
      ...(envelope.agentId !== undefined ? { agent_id: envelope.agentId } : {}),
    }
    const event = envelope.event
    switch (event.type) {
      case 'sessionOpened':
        return [
          {
            type: 'run_start',
            ...common,
            project_root: event.projectRoot,
            model: event.model,
            mode: event.mode,
            resumed: event.resumed,
            protocol_version: event.protocolVersion,
            ...(event.forkedFrom ? { forked_from: event.forkedFrom.sessionId } : {}),
          },
        ]
      case 'textDelta':
        return event.delta === '' ? [] : [{ type: 'text', ...common, text: event.delta }]
      case 'thinkingDelta':
        return event.delta === '' ? [] : [{ type: 'reasoning', ...common, text: event.delta }]
      case 'toolStarted':
        return [
          {
            type: 'tool_call',
            ...common,
            tool_use_id: event.toolUseId,
            name: event.toolName,
            title: event.title,
            input: event.input as Record<string, unknown>,
          },
        ]
      case 'toolFinished': {
        finished.set(event.toolUseId, {
          name: event.toolName,
          status: event.status,
          durationMs: event.durationMs,
          ...(event.summary !== undefined ? { summary: event.summary } : {}),
        })
        // A call denied without asking (a deny rule, plan mode, a hook): the gate's own decision.
        if (event.status !== 'denied' || asked.has(event.toolUseId)) return []
        return [
          {
            type: 'permission',
            ...common,
            tool_use_id: event.toolUseId,
            tool_name: event.toolName,
            decision: 'deny',
            reason: (event.output ?? event.summary ?? 'denied').replace(/^Permission denied: /, ''),
          },
        ]
      }
      case 'messageRecorded': {
        const message = event.message
        if (message.role === 'assistant') {
          const text = textOf(message.content)
          if (envelope.agentId === undefined && text !== '') lastAssistantText = text
          return []
        }
        const lines: StreamJsonEvent[] = []
        for (const block of message.content) {
          if (block.type !== 'tool_result') continue
          const call = finished.get(block.toolUseId)
          finished.delete(block.toolUseId)
          lines.push({
            type: 'tool_result',
            ...common,
            tool_use_id: block.toolUseId,
            name: call?.name ?? '',
            status: call?.status ?? (block.isError ? 'error' : 'ok'),
            duration_ms: call?.durationMs ?? 0,
            is_error: block.isError,
            // Each part on its own line, as the model reads them (diagnostics after an edit's snippet).
            output: block.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n'),
            ...(call?.summary !== undefined ? { summary: call.summary } : {}),
          })
        }
        return lines
      }
      case 'approvalRequested': {
        const request = event.request
        asked.add(request.toolUseId)
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
      }
      case 'approvalResolved': {
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
      }
      case 'usageUpdated':
        return [
          {
            type: 'usage',
            ...common,
            usage: snakeUsage(event.usage),
            cost_usd: event.cost.totalUsd,
            session_usage: snakeUsage(event.sessionUsage),
            session_cost_usd: event.sessionCost.totalUsd,
            ...(event.model !== undefined ? { model: event.model } : {}),
            ...(event.contextTokens !== undefined ? { context_tokens: event.contextTokens } : {}),
            ...(event.contextWindow !== undefined ? { context_window: event.contextWindow } : {}),
          },
        ]
      case 'checkpointCreated':
        return [
          {
            type: 'checkpoint',
            ...common,
            checkpoint_id: event.checkpoint.id,
            message_id: event.checkpoint.messageId,
            commit: event.checkpoint.commit,
          },
        ]
      case 'rewound':
        return [
          {
            type: 'restore',
            ...common,
            message_id: event.messageId,
            scope: event.scope,
            restored_files: event.restoredFiles ?? [],
            ...(event.checkpointId !== undefined ? { checkpoint_id: event.checkpointId } : {}),
          },
        ]
      case 'retrying':
        return [
          {
            type: 'warning',
            ...common,
            code: 'retrying',
            message: `Model request failed (${event.reason}); retry ${event.attempt} in ${event.delayMs} ms.`,
          },
        ]
      case 'trustRequired':
        return [
          {
            type: 'warning',
            ...common,
            code: 'trust_required',
            message: `This project sets ${event.categories.join(', ')}, withheld until you trust it (run 'z-engine trust' here, or the interactive z-engine once).`,
          },
        ]
      case 'notice':
        return [
          event.level === 'error'
            ? {
                type: 'error',
                ...common,
                message: event.message,
                ...(event.code ? { code: event.code } : {}),
              }
            : {
                // An info notice (what a rewind left alone, a reload) is no warning.
                type: event.level === 'info' ? 'info' : 'warning',
                ...common,
                message: event.message,
                ...(event.code ? { code: event.code } : {}),
              },
        ]
      case 'completionClaimUnchecked':
        return [
          {
            type: 'warning',
            ...common,
            code: 'completion_unchecked',
            message: 'The final answer claims completion that no check backs.',
          },
        ]
      case 'turnFinished': {
        if (envelope.agentId !== undefined) return []
        const result = lastAssistantText
        lastAssistantText = ''
        const outcome = event.outcome
        const denied = denials.take()
        const lines: StreamJsonEvent[] = []
        if (outcome.type === 'failed')
          lines.push({ type: 'error', ...common, code: outcome.error.code, message: outcome.error.message })
        lines.push({
          type: 'final',
          ...common,
          turn_id: event.turnId,
          outcome: streamOutcome(outcome),
          result,
          usage: snakeUsage(event.usage),
          cost_usd: event.cost.totalUsd,
          verification: streamVerification(event.badge),
          is_error: turnExitCode(event, denied.mutating) !== EXIT.ok,
          permission_denials: denied.denials,
          ...(outcome.type === 'budgetExhausted' ? { budget: outcome.budget } : {}),
          ...(outcome.type === 'failed' ? { error: { ...outcome.error } } : {}),
          ...(outcome.type === 'incomplete'
            ? { incomplete: { reason: outcome.reason, message: outcome.message } }
            : {}),
        })
        return lines
      }
      // Live detail a headless consumer does not need (or that other lines already carry).
      case 'turnStarted':
      case 'textStart':
      case 'textEnd':
      case 'thinkingStart':
      case 'thinkingEnd':
      case 'steeringQueued':
      case 'toolProgress':
      case 'questionAsked':
      case 'questionAnswered':
      case 'planProposed':
      case 'planResolved':
      case 'todosUpdated':
      case 'modeChanged':
      case 'modelChanged':
      case 'titleChanged':
      case 'agentUpdated':
      case 'jobUpdated':
      case 'checkRecorded':
      case 'compactionStarted':
      case 'compacted':
      case 'rewindPreviewed':
      case 'rewindUndone':
      case 'commandOutput':
      case 'routeChosen':
      case 'decisionTraced':
      case 'taskViewApplied':
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

/** The stream-json name of a turn outcome. */
export function streamOutcome(outcome: TurnOutcome): StreamOutcome {
  switch (outcome.type) {
    case 'done':
    case 'failed':
    case 'interrupted':
    case 'cancelled':
      return outcome.type
    case 'budgetExhausted':
      return 'budget_exhausted'
    case 'incomplete':
      return 'incomplete'
    default: {
      const unreachable: never = outcome
      return unreachable
    }
  }
}

/** The stream-json form of a verification badge. */
export function streamVerification(badge: VerificationBadge): StreamVerification {
  switch (badge.type) {
    case 'verified':
      return {
        status: 'verified',
        check_id: badge.checkId,
        ...(badge.checks !== undefined ? { check_ids: badge.checks } : {}),
      }
    case 'failed':
      return { status: 'failed', check_id: badge.checkId, reason: badge.reason }
    case 'unverified':
      return { status: 'unverified', reason: badge.reason }
    case 'notApplicable':
      return { status: 'not_applicable' }
    default: {
      const unreachable: never = badge
      return unreachable
    }
  }
}

/** Usage with snake_case keys. */
export function snakeUsage(usage: Usage): StreamUsage {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_read_tokens: usage.cacheReadTokens,
    cache_write_tokens: usage.cacheWriteTokens,
  }
}

function textOf(blocks: ReadonlyArray<ContentBlock | { type: string; text?: string }>): string {
  return blocks.map((block) => (block.type === 'text' && 'text' in block ? (block.text ?? '') : '')).join('')
}
