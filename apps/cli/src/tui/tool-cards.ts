import type { ApprovalDecision, EngineEvent, Message, QuestionResponse } from '@z-engine/protocol'
import { denialReason } from './denial-reason.js'
import { diffBody, diffCounts, shownPath } from './diff-lines.js'
import { append, updateTool, withLive } from './transcript-state.js'
import {
  type ChatState,
  KEPT_OUTPUTS,
  type ToolCard,
  type ToolOutput,
  visibleProgress,
} from './view-model.js'

/** Tool output lines a running card keeps (the card shows a tail, not the whole log). */
const PROGRESS_LINES = 4

/** The tail of a running call's output after `text` arrives: the last lines and the one still being written. */
export function progressLines(previous: string[], text: string): string[] {
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
export function withReply(
  state: ChatState,
  toolUseId: string | undefined,
  reply: string | undefined,
): ChatState {
  if (toolUseId === undefined || reply === undefined) return state
  return { ...state, replies: new Map(state.replies).set(toolUseId, reply) }
}

/** Adds a finished card to the transcript with its output (the result text, else the live tail). */
export function appendCard(state: ChatState, card: ToolCard, result: string | undefined): ChatState {
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
export function changeOf(diff: { path: string; unifiedDiff: string } | undefined): ToolCard['change'] {
  if (diff === undefined) return undefined
  const body = diffBody(diff.unifiedDiff)
  return { path: diff.path, body: body.join('\n'), ...diffCounts(body) }
}

/** Gives finished cards their result's output (a card waits for it), or keeps it for a card still running. */
export function joinResults(state: ChatState, message: Message): ChatState {
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
export function explainErrors(state: ChatState, message: Message): ChatState {
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

/** A finished call: its card waits for the result when its output is shown, else joins the transcript. */
export function onToolFinished(
  state: ChatState,
  event: Extract<EngineEvent, { type: 'toolFinished' }>,
): ChatState {
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

/** A running call's progress: the tail of its output on its card. */
export function onToolProgress(
  state: ChatState,
  event: Extract<EngineEvent, { type: 'toolProgress' }>,
): ChatState {
  const progress = event.progress
  return updateTool(state, event.toolUseId, (card) => ({
    ...card,
    progress:
      progress.type === 'output'
        ? progressLines(card.progress, progress.text)
        : progressLines(card.progress, `${progress.message}\n`),
  }))
}

/** A call that started: a running card in the live area, with the subagent that made it. */
export function onToolStarted(
  state: ChatState,
  event: Extract<EngineEvent, { type: 'toolStarted' }>,
  agentId: string | undefined,
): ChatState {
  return withLive(state, (live) =>
    live.tools.set(event.toolUseId, {
      toolUseId: event.toolUseId,
      toolName: event.toolName,
      title: event.title,
      status: 'running',
      progress: [],
      ...(agentId !== undefined ? { agentId } : {}),
    }),
  )
}
