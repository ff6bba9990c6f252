import { promptTokensOf } from '@z-engine/engine/models'
import type { EngineEvent, EventEnvelope, Route } from '@z-engine/protocol'
import { attachedFiles } from './attached-files.js'
import { isRewindable, splitSettled, userText } from './message-text.js'
import { onRewound } from './rewind-rows.js'
import { taskViewDivider } from './task-view-divider.js'
import { todoLines } from './todo-lines.js'
import {
  answerText,
  appendCard,
  decisionText,
  explainErrors,
  joinResults,
  onToolFinished,
  onToolProgress,
  onToolStarted,
  withReply,
} from './tool-cards.js'
import { append, finishPart, withLive } from './transcript-state.js'
import { type ChatState, retryText } from './view-model.js'

/** The line the chat shows when the route seam raised a turn's or an agent's model or effort. */
export function routeText(route: Route): string {
  const raised = [
    ...(route.model !== undefined ? [route.model] : []),
    ...(route.effort !== undefined ? [`${route.effort} effort`] : []),
  ].join(', ')
  const who = route.agentId !== undefined ? `Agent ${route.agentId}` : 'This turn'
  return `${who} routed to ${raised}: ${route.reason}`
}

/** Events that show a retried request went through, or that the turn is over. */
const RETRY_ENDS: ReadonlySet<EngineEvent['type']> = new Set([
  'textStart',
  'thinkingStart',
  'toolStarted',
  'turnFinished',
])

/** Prints the live retry line once, as a warning, and clears it. */
function settleRetry(state: ChatState): ChatState {
  const { retry, ...rest } = state
  return retry === undefined
    ? state
    : append(rest, { kind: 'notice', level: 'warning', text: retryText(retry) })
}

/** An event's time in epoch ms; now when the envelope's time does not parse. */
function startedAt(at: string): number {
  const ms = Date.parse(at)
  return Number.isNaN(ms) ? Date.now() : ms
}

/** A turn's end: live parts and finished cards move to the transcript; asks and plans close. */
function onTurnFinished(
  state: ChatState,
  event: Extract<EngineEvent, { type: 'turnFinished' }>,
  fromSubagent: boolean,
): ChatState {
  if (fromSubagent) return state
  let next = state
  for (const id of [...state.live.parts.keys()]) next = finishPart(next, id)
  // Finished cards still waiting for a result message are printed as they are.
  for (const card of [...next.live.tools.values()]) {
    if (card.status === 'running') continue
    next = appendCard(
      withLive(next, (live) => live.tools.delete(card.toolUseId)),
      card,
      undefined,
    )
  }
  next = { ...next, results: new Map() }
  // The rewind picker marks the messages whose turn changed files.
  const last = next.prompts.at(-1)
  if (event.mutated === true && last !== undefined && last.changedFiles !== true)
    next = { ...next, prompts: [...next.prompts.slice(0, -1), { ...last, changedFiles: true }] }
  const { busySince: _ended, ...idle } = next
  next = {
    ...idle,
    busy: false,
    badge: event.badge,
    approvals: [],
    questions: [],
    plans: [],
    // Cancel drops queued steering; an interrupt keeps it for the next turn.
    queued: event.outcome.type === 'cancelled' ? [] : next.queued,
  }
  return event.outcome.type === 'done' ? next : append(next, { kind: 'turnEnded', outcome: event.outcome })
}

/** A recorded message: results join their cards; the user's own words join the transcript. */
function onMessageRecorded(
  state: ChatState,
  event: Extract<EngineEvent, { type: 'messageRecorded' }>,
  fromSubagent: boolean,
): ChatState {
  const explained = explainErrors(joinResults(state, event.message), event.message)
  const text = fromSubagent ? undefined : userText(event.message)
  if (text === undefined) return explained
  // Steering is delivered as a user message: it leaves the queue and joins the transcript.
  const queued = explained.queued.filter((item) => !text.includes(item))
  const prompts = isRewindable(event.origin)
    ? [...explained.prompts, { messageId: event.message.id, text }]
    : explained.prompts
  const attached = attachedFiles(event.message)
  return append(
    { ...explained, queued, prompts },
    { kind: 'user', text, ...(attached.length > 0 ? { attached } : {}) },
  )
}

/** A background agent's row: live while it works, in the transcript once it ends. */
function onAgentUpdated(state: ChatState, event: Extract<EngineEvent, { type: 'agentUpdated' }>): ChatState {
  const agent = event.agent
  // A foreground subagent is its Agent call's card (running, then done with its duration); a
  // row of its own would list it twice. Only background agents outlive their card.
  if (!agent.background) return state
  const working = agent.status === 'pending' || agent.status === 'running' || agent.status === 'waiting'
  if (working) return withLive(state, (live) => live.agents.set(agent.id, agent))
  if (!state.live.agents.has(agent.id)) return state
  return append(
    withLive(state, (live) => live.agents.delete(agent.id)),
    { kind: 'agent', agent },
  )
}

/** The cost and the context meter after a request. */
function onUsageUpdated(
  state: ChatState,
  event: Extract<EngineEvent, { type: 'usageUpdated' }>,
  fromSubagent: boolean,
): ChatState {
  // The meter is the main agent's prompt size: the engine's when it reports one, else the
  // last request's prompt tokens. A subagent's requests say nothing about the main context.
  const contextTokens =
    event.contextTokens ?? (fromSubagent ? state.contextTokens : promptTokensOf(event.usage))
  return {
    ...state,
    costUsd: event.sessionCost.totalUsd,
    ...(contextTokens !== undefined ? { contextTokens } : {}),
    ...(event.contextWindow !== undefined ? { contextWindow: event.contextWindow } : {}),
  }
}

/** Streamed text: settled paragraphs move to the transcript, the rest stays live. */
function onDelta(
  state: ChatState,
  event: Extract<EngineEvent, { type: 'textDelta' | 'thinkingDelta' }>,
  fromSubagent: boolean,
): ChatState {
  const part = state.live.parts.get(event.id)
  if (fromSubagent || !part) return state
  const text = part.text + event.delta
  const [settled, rest] = part.kind === 'assistant' ? splitSettled(text) : ['', text]
  const next = withLive(state, (live) => live.parts.set(event.id, { ...part, text: rest }))
  // Finished paragraphs leave the live area at once: a live area taller than the terminal
  // makes Ink clear and redraw the whole screen on every delta, which is the flicker we avoid.
  return settled === '' ? next : append(next, { kind: 'assistant', text: settled })
}

/** A retried request: the same failure again updates the live line, another prints the previous first. */
function onRetrying(state: ChatState, event: Extract<EngineEvent, { type: 'retrying' }>): ChatState {
  const retry = {
    reason: event.reason,
    attempt: event.attempt,
    delayMs: event.delayMs,
    ...(event.maxAttempts === undefined ? {} : { maxAttempts: event.maxAttempts }),
  }
  // The same failure again updates the live line; another one prints the previous first.
  const next = state.retry !== undefined && state.retry.reason !== event.reason ? settleRetry(state) : state
  return { ...next, retry }
}

/**
 * Folds one event into the chat screen's state. Pure, so the whole screen is testable from event
 * lists; events the screen does not show are listed explicitly so a new event type is a compile error.
 */
export function reduceEvent(prior: ChatState, envelope: EventEnvelope): ChatState {
  const event: EngineEvent = envelope.event
  // A retried request that now answers (or a turn that ends) leaves one line in the transcript.
  const state = prior.retry !== undefined && RETRY_ENDS.has(event.type) ? settleRetry(prior) : prior
  // A subagent's streamed text stays inside its own transcript; its tools and asks still show.
  const fromSubagent = envelope.agentId !== undefined
  switch (event.type) {
    case 'sessionOpened':
      return { ...state, sessionId: event.sessionId, mode: event.mode, model: event.model }
    case 'turnStarted':
      return fromSubagent ? state : { ...state, busy: true, busySince: startedAt(envelope.at) }
    case 'turnFinished':
      return onTurnFinished(state, event, fromSubagent)
    case 'usageUpdated':
      return onUsageUpdated(state, event, fromSubagent)
    case 'textStart':
    case 'thinkingStart': {
      if (fromSubagent) return state
      const kind = event.type === 'textStart' ? 'assistant' : 'thinking'
      return withLive(state, (live) => live.parts.set(event.id, { kind, key: `part-${event.id}`, text: '' }))
    }
    case 'textDelta':
    case 'thinkingDelta':
      return onDelta(state, event, fromSubagent)
    case 'textEnd':
    case 'thinkingEnd':
      return fromSubagent ? state : finishPart(state, event.id)
    case 'messageRecorded':
      return onMessageRecorded(state, event, fromSubagent)
    case 'steeringQueued':
      return fromSubagent ? state : { ...state, queued: [...state.queued, event.text] }
    case 'toolStarted':
      return onToolStarted(state, event, envelope.agentId)
    case 'toolProgress':
      return onToolProgress(state, event)
    case 'toolFinished':
      return onToolFinished(state, event)
    case 'approvalRequested':
      return { ...state, approvals: [...state.approvals, event.request] }
    case 'approvalResolved': {
      const request = state.approvals.find((item) => item.id === event.approvalId)
      return withReply(
        { ...state, approvals: state.approvals.filter((item) => item.id !== event.approvalId) },
        request?.toolUseId,
        decisionText(event.decision),
      )
    }
    case 'questionAsked':
      return { ...state, questions: [...state.questions, event.question] }
    case 'questionAnswered': {
      const question = state.questions.find((item) => item.id === event.questionId)
      return withReply(
        { ...state, questions: state.questions.filter((item) => item.id !== event.questionId) },
        question?.toolUseId,
        answerText(event.response),
      )
    }
    case 'planProposed':
      return { ...state, plans: [...state.plans, event.plan] }
    case 'planResolved': {
      const plan = state.plans.find((item) => item.id === event.planId)
      const next = { ...state, plans: state.plans.filter((item) => item.id !== event.planId) }
      // An approved plan stays in the transcript as what was agreed.
      return plan !== undefined && event.decision.type === 'approve'
        ? append(next, { kind: 'plan', markdown: plan.markdown, mode: event.decision.mode })
        : next
    }
    case 'todosUpdated':
      return append(state, {
        kind: 'commandOutput',
        name: 'todos',
        markdown: todoLines(event.todos),
      })
    case 'modeChanged':
      return { ...state, mode: event.mode }
    case 'modelChanged':
      return { ...state, model: event.model }
    case 'compacted':
      return append(state, {
        kind: 'divider',
        text: `Context compacted (${event.marker.tokensBefore} → ${event.marker.tokensAfter} tokens)`,
      })
    case 'compactionStarted':
      return append(state, { kind: 'notice', level: 'info', text: 'Compacting context…' })
    case 'commandOutput':
      return append(state, { kind: 'commandOutput', name: event.name, markdown: event.markdown })
    case 'notice':
      return append(state, { kind: 'notice', level: event.level, text: event.message })
    case 'retrying':
      return onRetrying(state, event)
    case 'rewound':
      return onRewound(state, event, fromSubagent)
    case 'rewindPreviewed':
      return append(state, {
        kind: 'notice',
        level: 'info',
        text: `Rewind would revert ${event.restoreFiles.length} file(s), revert the agent's hunks in ${(event.mergeFiles ?? []).length}, keep ${event.skippedFiles.length + event.leftAloneFiles.length} changed by hand, and drop ${event.removedMessageIds.length} message(s).`,
      })
    case 'rewindUndone':
      return append(state, {
        kind: 'divider',
        text: `Rewind undone (${event.restoredFiles.length} file(s) put back)`,
      })
    case 'trustRequired':
      // The trust prompt opens over the composer; the notice stays in the transcript for later.
      return append(
        { ...state, trustRequest: { categories: event.categories } },
        {
          kind: 'notice',
          level: 'warning',
          text: `This project's ${event.categories.join(', ')} settings are withheld until you trust the workspace (/trust here, or 'z-engine trust' / 'z-engine exec --trust' from a shell).`,
        },
      )
    case 'routeChosen':
      return append(state, { kind: 'notice', level: 'info', text: routeText(event.route) })
    case 'completionClaimUnchecked':
      return append(state, {
        kind: 'notice',
        level: 'warning',
        text: 'The answer claims completion that no check backs.',
      })
    case 'agentUpdated':
      return onAgentUpdated(state, event)
    case 'checkpointCreated':
      return fromSubagent
        ? state
        : { ...state, checkpoints: new Set(state.checkpoints).add(event.checkpoint.messageId) }
    case 'taskViewApplied':
      return append(state, { kind: 'divider', text: taskViewDivider(event.view) })
    case 'titleChanged':
    case 'jobUpdated':
    case 'checkRecorded':
    case 'decisionTraced':
    case 'suggested':
    case 'suggestionResolved':
    case 'turnToneJudged':
    case 'urgencyScored':
      return state
    default: {
      const unreachable: never = event
      return unreachable
    }
  }
}
