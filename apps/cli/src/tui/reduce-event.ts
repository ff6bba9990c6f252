import { promptTokensOf } from '@z-engine/engine/internal'
import type {
  ApprovalDecision,
  EngineEvent,
  EventEnvelope,
  Message,
  MessageOrigin,
  QuestionResponse,
  RewindScope,
  Route,
} from '@z-engine/protocol'
import { attachedFiles } from './attached-files.js'
import { denialReason } from './denial-reason.js'
import { diffBody, diffCounts, shownPath } from './diff-lines.js'
import { taskViewDivider } from './task-view-divider.js'
import { todoLines } from './todo-lines.js'
import {
  type ChatState,
  type LiveRows,
  retryText,
  type ToolCard,
  type ToolOutput,
  type TranscriptEntry,
  visibleProgress,
} from './view-model.js'

/** Tool output lines a running card keeps (the card shows a tail, not the whole log). */
const PROGRESS_LINES = 4

/** The line the chat shows when the route seam raised a turn's or an agent's model or effort. */
export function routeText(route: Route): string {
  const raised = [
    ...(route.model !== undefined ? [route.model] : []),
    ...(route.effort !== undefined ? [`${route.effort} effort`] : []),
  ].join(', ')
  const who = route.agentId !== undefined ? `Agent ${route.agentId}` : 'This turn'
  return `${who} routed to ${raised}: ${route.reason}`
}

/** Whether a text block is a reminder the engine adds for the model (never shown as the user's words). */
export function isReminder(text: string): boolean {
  return text.trimStart().startsWith('<system-reminder>')
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

/** The plain text of a user message, or undefined when it holds none (tool results). */
export function userText(message: Message): string | undefined {
  if (message.role !== 'user') return undefined
  const parts: string[] = []
  for (const block of message.content)
    if (
      block.type === 'text' &&
      !isReminder(block.text) &&
      !(parts.length > 0 && (isCommandBody(block.text) || isAttachedFile(block.text)))
    )
      parts.push(block.text)
  return parts.length > 0 ? parts.join('\n') : undefined
}

/**
 * A file an `@path` mention attached to the prompt: for the model only, so the transcript (and a
 * rewind putting the message back) shows the mention as typed, not the file's text.
 */
export function isAttachedFile(text: string): boolean {
  return /^<file path="[^"\n]*">\n[\s\S]*\n<\/file>$/.test(text)
}

/**
 * The expanded template a prompt command sends after the `/name args` the user typed: for the
 * model only, so the transcript shows just what was typed (as Claude Code does).
 */
export function isCommandBody(text: string): boolean {
  return /^<command name="[^"]*">\n[\s\S]*<\/command>$/.test(text)
}

function append(state: ChatState, ...entries: Array<DistributiveOmit<TranscriptEntry, 'key'>>): ChatState {
  let nextKey = state.nextKey
  const added = entries.map((entry) => ({ ...entry, key: `k${nextKey++}` }) as TranscriptEntry)
  return { ...state, finished: [...state.finished, ...added], nextKey }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

function withLive(state: ChatState, change: (live: LiveRows) => void): ChatState {
  const live: LiveRows = {
    parts: new Map(state.live.parts),
    tools: new Map(state.live.tools),
    agents: new Map(state.live.agents),
  }
  change(live)
  return { ...state, live }
}

/** Moves a finished streaming part (text or thinking) from the live area to the transcript. */
function finishPart(state: ChatState, id: string): ChatState {
  const part = state.live.parts.get(id)
  if (!part) return state
  const without = withLive(state, (live) => live.parts.delete(id))
  if (part.text.trim() === '') return without
  return append(without, { kind: part.kind, text: part.text })
}

function updateTool(state: ChatState, id: string, change: (card: ToolCard) => ToolCard): ChatState {
  const card = state.live.tools.get(id)
  if (!card) return state
  return withLive(state, (live) => live.tools.set(id, change(card)))
}

function progressLines(previous: string[], text: string): string[] {
  const lines = [...previous]
  const incoming = text.split('\n')
  // Output arrives in chunks that may split a line: the first piece continues the last line.
  if (lines.length > 0 && incoming.length > 0) lines[lines.length - 1] += incoming.shift() ?? ''
  lines.push(...incoming)
  // The last element is the line still being written ('' after a newline); keep it besides the tail.
  const partial = lines.pop() ?? ''
  return [...lines.filter((line) => line !== '').slice(-PROGRESS_LINES), partial]
}

/** Longest error text a row shows (the model gets the whole result). */
const ERROR_CHARS = 300

/** Lines of a finished call's output its card shows (Ctrl-O shows them all). */
export const OUTPUT_LINES = 4

/** How many finished outputs are kept for Ctrl-O. */
const KEPT_OUTPUTS = 20

/** Longest output kept for Ctrl-O (the model gets the whole result). */
const KEPT_OUTPUT_CHARS = 64 * 1024

/** Tools whose output is worth a glance in the transcript (file tools say it in their summary). */
export function showsOutput(toolName: string): boolean {
  return (
    ['Bash', 'BashOutput', 'Grep', 'Glob', 'LS', 'WebFetch', 'WebSearch'].includes(toolName) ||
    toolName.startsWith('mcp__')
  )
}

/** The text of a tool result's text parts. */
function resultText(content: ReadonlyArray<{ type: string; text?: string }>): string {
  return content
    .map((part) => (part.type === 'text' ? (part.text ?? '') : ''))
    .join('\n')
    .replace(/\s+$/, '')
}

/** The collapsed view of an output: its last lines and how many are hidden above them. */
export function collapseOutput(text: string, lines = OUTPUT_LINES): { lines: string[]; hidden: number } {
  const all = text.split('\n')
  while (all.length > 0 && (all[0] ?? '').trim() === '') all.shift()
  const shown = all.slice(-lines)
  return { lines: shown, hidden: all.length - shown.length }
}

/** The row a question's response leaves under its card: what the user chose, or that they dismissed it. */
export function answerText(response: QuestionResponse): string {
  if (response.type === 'dismissed') return 'Dismissed'
  const answers = response.answers.map((answer) => {
    const chosen = [
      ...answer.selected,
      ...(answer.other !== undefined && answer.other !== '' ? [answer.other] : []),
    ]
    return { question: answer.question, text: chosen.length > 0 ? chosen.join(', ') : '(no answer)' }
  })
  // One question needs no label; several say which answer is which.
  const body =
    answers.length === 1
      ? (answers[0]?.text ?? '')
      : answers.map((answer) => `${answer.question} ${answer.text}`).join(' · ')
  return `Answered: ${body}`
}

/** The row an approval's decision leaves under its card: only a deny's feedback says more than the status. */
export function decisionText(decision: ApprovalDecision): string | undefined {
  return decision.type === 'deny' && decision.feedback !== undefined && decision.feedback.trim() !== ''
    ? `Denied: ${decision.feedback.trim()}`
    : undefined
}

/** Keeps the user's reply for a call until its card is printed. */
function withReply(state: ChatState, toolUseId: string | undefined, reply: string | undefined): ChatState {
  if (toolUseId === undefined || reply === undefined) return state
  return { ...state, replies: new Map(state.replies).set(toolUseId, reply) }
}

/** Adds a finished card to the transcript with its output (the result text, else the live tail). */
function appendCard(state: ChatState, card: ToolCard, result: string | undefined): ChatState {
  let next = state
  let output: ToolCard['output']
  const live = visibleProgress(card).join('\n')
  // A cancelled or interrupted call keeps the output it had streamed.
  const text =
    card.status === 'ok' && result !== undefined && showsOutput(card.toolName)
      ? result
      : card.status !== 'ok' && card.status !== 'error'
        ? live
        : ''
  if (card.change !== undefined && card.status === 'ok') {
    next = keepOutput(next, {
      toolUseId: card.toolUseId,
      title: `change to ${shownPath(card.change.path, next.projectRoot)}`,
      text: card.change.body,
      diff: true,
    })
  } else if (text.trim() !== '') {
    output = collapseOutput(text)
    const kept =
      text.length > KEPT_OUTPUT_CHARS ? `${text.slice(0, KEPT_OUTPUT_CHARS)}\n… (cut at 64 KiB)` : text
    next = keepOutput(next, { toolUseId: card.toolUseId, title: card.title, text: kept })
  }
  const reply = next.replies.get(card.toolUseId)
  if (reply !== undefined) {
    const replies = new Map(next.replies)
    replies.delete(card.toolUseId)
    next = { ...next, replies }
  }
  const { progress: _progress, ...rest } = card
  return append(next, {
    kind: 'tool',
    card: { ...rest, progress: [], ...(output ? { output } : {}), ...(reply !== undefined ? { reply } : {}) },
  })
}

/** Keeps a finished call's whole output (or diff) for Ctrl-O, the newest {@link KEPT_OUTPUTS}. */
function keepOutput(state: ChatState, output: ToolOutput): ChatState {
  return { ...state, outputs: [...state.outputs, output].slice(-KEPT_OUTPUTS) }
}

/** A file change as a card keeps it: the path, the diff's hunks and their counts. */
function changeOf(diff: { path: string; unifiedDiff: string } | undefined): ToolCard['change'] {
  if (diff === undefined) return undefined
  const body = diffBody(diff.unifiedDiff)
  return { path: diff.path, body: body.join('\n'), ...diffCounts(body) }
}

/** Gives finished cards their result's output (a card waits for it), or keeps it for a card still running. */
function joinResults(state: ChatState, message: Message): ChatState {
  if (message.role !== 'user') return state
  let next = state
  for (const block of message.content) {
    if (block.type !== 'tool_result') continue
    const text = resultText(block.content)
    const card = next.live.tools.get(block.toolUseId)
    if (card !== undefined && card.status !== 'running') {
      next = appendCard(
        withLive(next, (live) => live.tools.delete(block.toolUseId)),
        card,
        text,
      )
    } else if (!block.isError) next = { ...next, results: new Map(next.results).set(block.toolUseId, text) }
  }
  return next
}

/** Shows why a call failed when its card had no summary: the first lines of its error result. */
function explainErrors(state: ChatState, message: Message): ChatState {
  if (state.unexplained.size === 0 || message.role !== 'user') return state
  let next = state
  for (const block of message.content) {
    if (block.type !== 'tool_result' || !block.isError) continue
    const toolName = next.unexplained.get(block.toolUseId)
    if (toolName === undefined) continue
    const unexplained = new Map(next.unexplained)
    unexplained.delete(block.toolUseId)
    const detail = block.content
      .map((part) => (part.type === 'text' ? part.text : ''))
      .join(' ')
      .trim()
    const cut =
      detail.length > ERROR_CHARS
        ? `${detail.slice(0, ERROR_CHARS)}… (${detail.length - ERROR_CHARS} more characters)`
        : detail
    next = { ...next, unexplained }
    if (detail !== '') next = append(next, { kind: 'notice', level: 'error', text: `${toolName}: ${cut}` })
  }
  return next
}

/** Whether a user message of this origin is one the user wrote (a prompt, a command, steering). */
export function isRewindable(origin: MessageOrigin | undefined): boolean {
  return origin === undefined || origin === 'prompt' || origin === 'command' || origin === 'steering'
}

/** What a scope restores, in words. */
export const SCOPE_WORDS: Record<RewindScope, string> = {
  both: 'code and conversation',
  conversation: 'conversation only',
  code: 'code only',
}

/** Shortens a prompt to one line for a divider or a picker row. */
export function oneLine(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

/** The rows a rewind leaves in the transcript: a divider naming the target, then the files it restored. */
function rewoundRows(
  event: Extract<EngineEvent, { type: 'rewound' }>,
  text: string | undefined,
): Array<DistributiveOmit<TranscriptEntry, 'key'>> {
  const before = text !== undefined ? ` to before “${oneLine(text, 40)}”` : ''
  const rows: Array<DistributiveOmit<TranscriptEntry, 'key'>> = [
    { kind: 'divider', text: `Rewound${before} (${SCOPE_WORDS[event.scope]})` },
  ]
  if (event.scope === 'conversation') return rows
  const files = event.restoredFiles ?? []
  const merged = event.mergedFiles ?? []
  const list = (paths: readonly string[]) =>
    `${paths.slice(0, 8).join(', ')}${paths.length > 8 ? ` and ${paths.length - 8} more` : ''}`
  if (files.length > 0 || merged.length === 0)
    rows.push({
      kind: 'notice',
      level: 'info',
      text:
        files.length === 0
          ? 'No file needed restoring.'
          : `Restored ${files.length} file${files.length === 1 ? '' : 's'}: ${list(files)}.`,
    })
  if (merged.length > 0)
    rows.push({
      kind: 'notice',
      level: 'info',
      text: `Reverted the agent's hunks in ${merged.length} file${merged.length === 1 ? '' : 's'} edited since, keeping the later edits: ${list(merged)}.`,
    })
  return rows
}

/**
 * Splits streaming text after its last paragraph break outside a code fence: the part before can
 * no longer change. Returns `['', text]` when nothing is settled yet.
 */
export function splitSettled(text: string): [string, string] {
  let fenceOpen = false
  let splitAt = -1
  let offset = 0
  const lines = text.split('\n')
  for (const [index, line] of lines.entries()) {
    if (/^\s*```/.test(line)) fenceOpen = !fenceOpen
    else if (line.trim() === '' && !fenceOpen && index < lines.length - 1) splitAt = offset + line.length + 1
    offset += line.length + 1
  }
  if (splitAt < 0) return ['', text]
  const settled = text.slice(0, splitAt).trimEnd()
  return settled.trim() === '' ? ['', text] : [settled, text.slice(splitAt)]
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
    case 'turnFinished': {
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
      return event.outcome.type === 'done'
        ? next
        : append(next, { kind: 'turnEnded', outcome: event.outcome })
    }
    case 'usageUpdated': {
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
    case 'textStart':
    case 'thinkingStart': {
      if (fromSubagent) return state
      const kind = event.type === 'textStart' ? 'assistant' : 'thinking'
      return withLive(state, (live) => live.parts.set(event.id, { kind, key: `part-${event.id}`, text: '' }))
    }
    case 'textDelta':
    case 'thinkingDelta': {
      const part = state.live.parts.get(event.id)
      if (fromSubagent || !part) return state
      const text = part.text + event.delta
      const [settled, rest] = part.kind === 'assistant' ? splitSettled(text) : ['', text]
      const next = withLive(state, (live) => live.parts.set(event.id, { ...part, text: rest }))
      // Finished paragraphs leave the live area at once: a live area taller than the terminal
      // makes Ink clear and redraw the whole screen on every delta, which is the flicker we avoid.
      return settled === '' ? next : append(next, { kind: 'assistant', text: settled })
    }
    case 'textEnd':
    case 'thinkingEnd':
      return fromSubagent ? state : finishPart(state, event.id)
    case 'messageRecorded': {
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
    case 'steeringQueued':
      return fromSubagent ? state : { ...state, queued: [...state.queued, event.text] }
    case 'toolStarted':
      return withLive(state, (live) =>
        live.tools.set(event.toolUseId, {
          toolUseId: event.toolUseId,
          toolName: event.toolName,
          title: event.title,
          status: 'running',
          progress: [],
          ...(envelope.agentId !== undefined ? { agentId: envelope.agentId } : {}),
        }),
      )
    case 'toolProgress': {
      const progress = event.progress
      return updateTool(state, event.toolUseId, (card) => ({
        ...card,
        progress:
          progress.type === 'output'
            ? progressLines(card.progress, progress.text)
            : progressLines(card.progress, `${progress.message}\n`),
      }))
    }
    case 'toolFinished': {
      const card: ToolCard = state.live.tools.get(event.toolUseId) ?? {
        // Denied calls never start: their card appears only here.
        toolUseId: event.toolUseId,
        toolName: event.toolName,
        title: event.toolName,
        status: 'running',
        progress: [],
      }
      const change = changeOf(event.diff)
      const summary =
        event.summary ?? (event.status === 'denied' ? denialReason(event.output, state.mode) : undefined)
      const done: ToolCard = {
        ...card,
        status: event.status,
        durationMs: event.durationMs,
        ...(summary !== undefined ? { summary } : {}),
        ...(change !== undefined ? { change } : {}),
      }
      const result = state.results.get(event.toolUseId)
      // A successful call whose output is shown waits (still drawn live) for its result message.
      if (result === undefined && event.status === 'ok' && showsOutput(done.toolName))
        return {
          ...withLive(state, (live) => live.tools.set(event.toolUseId, done)),
          approvals: state.approvals.filter((request) => request.toolUseId !== event.toolUseId),
        }
      const next = withLive(state, (live) => live.tools.delete(event.toolUseId))
      if (event.status === 'error' && (event.summary ?? '') === '') {
        next.unexplained = new Map(next.unexplained).set(event.toolUseId, event.toolName)
      }
      if (result !== undefined) {
        next.results = new Map(next.results)
        next.results.delete(event.toolUseId)
      }
      return appendCard(
        { ...next, approvals: next.approvals.filter((request) => request.toolUseId !== event.toolUseId) },
        done,
        result,
      )
    }
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
    case 'retrying': {
      const retry = {
        reason: event.reason,
        attempt: event.attempt,
        delayMs: event.delayMs,
        ...(event.maxAttempts === undefined ? {} : { maxAttempts: event.maxAttempts }),
      }
      // The same failure again updates the live line; another one prints the previous first.
      const next =
        state.retry !== undefined && state.retry.reason !== event.reason ? settleRetry(state) : state
      return { ...next, retry }
    }
    case 'rewound': {
      if (fromSubagent) return state
      const at = state.prompts.findIndex((prompt) => prompt.messageId === event.messageId)
      const target = state.prompts[at]
      // The conversation from the target on is gone; a code-only rewind keeps it.
      const prompts = event.scope === 'code' || at < 0 ? state.prompts : state.prompts.slice(0, at)
      const conflicts = (event.conflictFiles ?? []).map((conflict) => ({
        messageId: event.messageId,
        path: conflict.path,
        hunks: conflict.hunks.length,
      }))
      return append(
        { ...state, prompts, rewindConflicts: [...state.rewindConflicts, ...conflicts] },
        ...rewoundRows(event, target?.text),
      )
    }
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
    case 'agentUpdated': {
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
