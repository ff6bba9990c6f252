import type { Engine } from '@z-engine/engine'
import { attachedFiles } from './attached-files.js'
import { denialReason } from './denial-reason.js'
import { shownPath } from './diff-lines.js'
import { isAttachedFile, isCommandBody, isReminder, isRewindable, userText } from './message-text.js'
import { replayedChange } from './replayed-change.js'
import { taskViewDivider } from './task-view-divider.js'
import { answerText, decisionText } from './tool-cards.js'
import type { NewEntry } from './transcript-state.js'
import type { RewindTarget, ToolOutput, TranscriptEntry } from './view-model.js'

type Replayed = Extract<Awaited<ReturnType<Engine['store']['replay']>>, { ok: true }>
/** A stored session's display transcript, as the store replays it. */
export type StoredTranscript = Replayed['value']['snapshot']['transcript']
/** A stored session's turns, as the store replays them. */
export type StoredTurns = Replayed['value']['snapshot']['turns']

/** Input fields that say what a tool call did, in the order a card title prefers them. */
const TITLE_FIELDS = ['command', 'file_path', 'path', 'pattern', 'url', 'query', 'description'] as const

/**
 * A one-line card title for a replayed call (live cards get the engine's title instead); a path
 * inside `projectRoot` is shown relative to it, as live cards show it.
 */
export function replayedToolTitle(
  name: string,
  input: Record<string, unknown>,
  projectRoot?: string,
): string {
  for (const field of TITLE_FIELDS) {
    const value = input[field]
    if (typeof value !== 'string' || value === '') continue
    const line = value.split('\n')[0] ?? name
    const inside = projectRoot !== undefined && line.startsWith(`${projectRoot}/`)
    return inside ? line.slice(projectRoot.length + 1) : line
  }
  return name
}

/** The rows a resumed chat shows before anything new happens: the stored conversation, oldest first. */
export function replayTranscript(items: StoredTranscript, projectRoot?: string): TranscriptEntry[] {
  const entries: TranscriptEntry[] = []
  const push = (entry: NewEntry) => entries.push({ ...entry, key: `r${entries.length}` } as TranscriptEntry)
  for (const item of items) {
    switch (item.kind) {
      case 'message': {
        if (item.origin === 'reminder' || item.origin === 'summary') break
        const attached = attachedFiles(item.message)
        for (const [index, block] of item.message.content.entries()) {
          if (
            block.type === 'text' &&
            item.message.role === 'user' &&
            index > 0 &&
            (isCommandBody(block.text) || isAttachedFile(block.text))
          )
            continue
          if (block.type === 'text' && block.text.trim() !== '' && !isReminder(block.text))
            push(
              item.message.role === 'user'
                ? {
                    kind: 'user',
                    text: block.text,
                    ...(index === 0 && attached.length > 0 ? { attached } : {}),
                  }
                : { kind: 'assistant', text: block.text },
            )
          else if (block.type === 'thinking' && block.thinking.trim() !== '')
            push({ kind: 'thinking', text: block.thinking })
        }
        break
      }
      case 'tool': {
        // The row the user's reply left under the card, as the live chat draws it.
        const reply =
          item.answer !== undefined
            ? answerText(item.answer)
            : item.denyFeedback !== undefined
              ? decisionText({ type: 'deny', feedback: item.denyFeedback })
              : undefined
        // The plan the user approved stays visible on resume, as it did live.
        const plan = item.name === 'ExitPlanMode' && item.status === 'ok' ? item.input.plan : undefined
        if (typeof plan === 'string') push({ kind: 'plan', markdown: plan })
        // As live: a refused call says why, an applied edit keeps its change (rebuilt from its input).
        const summary = item.status === 'denied' ? denialReason(item.refusal, 'default') : undefined
        const change = item.status === 'ok' ? replayedChange(item.name, item.input) : undefined
        push({
          kind: 'tool',
          card: {
            toolUseId: item.toolUseId,
            toolName: item.name,
            title: replayedToolTitle(item.name, item.input, projectRoot),
            status: item.status,
            progress: [],
            ...(reply !== undefined ? { reply } : {}),
            ...(summary !== undefined ? { summary } : {}),
            ...(change !== undefined ? { change } : {}),
          },
        })
        break
      }
      case 'turnEnded':
        if (item.outcome.type !== 'done') push({ kind: 'turnEnded', outcome: item.outcome })
        break
      case 'compaction':
        push({ kind: 'divider', text: 'Context compacted' })
        break
      case 'notice':
        push({ kind: 'notice', level: item.level, text: item.text })
        break
      case 'taskView':
        push({ kind: 'divider', text: taskViewDivider(item.view) })
        break
      default: {
        const unreachable: never = item
        throw new Error(`unknown transcript item ${JSON.stringify(unreachable)}`)
      }
    }
  }
  if (entries.length > 0) push({ kind: 'divider', text: 'Resumed' })
  return entries
}

/**
 * The user's own messages still in a stored conversation, oldest first (what `/rewind` offers),
 * each marked when a turn it opened changed files, as the live chat marks them.
 */
export function replayPrompts(items: StoredTranscript, turns: StoredTurns = []): RewindTarget[] {
  const changed = new Set(
    turns.flatMap((turn) => (turn.mutated === true && turn.messageId ? [turn.messageId] : [])),
  )
  const prompts: RewindTarget[] = []
  for (const item of items) {
    if (item.kind !== 'message' || item.message.role !== 'user' || !isRewindable(item.origin)) continue
    const text = userText(item.message)
    if (text === undefined) continue
    prompts.push({
      messageId: item.message.id,
      text,
      ...(changed.has(item.message.id) ? { changedFiles: true } : {}),
    })
  }
  return prompts
}

/** What Ctrl-O shows first in a resumed chat: the replayed edits' changes, newest last. */
export function replayOutputs(entries: readonly TranscriptEntry[], projectRoot?: string): ToolOutput[] {
  return entries.flatMap((entry) =>
    entry.kind === 'tool' && entry.card.change !== undefined && entry.card.status === 'ok'
      ? [
          {
            toolUseId: entry.card.toolUseId,
            title: `change to ${shownPath(entry.card.change.path, projectRoot)}`,
            text: entry.card.change.body,
            diff: true,
          },
        ]
      : [],
  )
}
