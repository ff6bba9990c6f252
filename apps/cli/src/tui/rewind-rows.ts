import type { EngineEvent, RewindScope } from '@z-engine/protocol'
import { oneLine } from './message-text.js'
import { append, type NewEntry } from './transcript-state.js'
import type { ChatState } from './view-model.js'

/** What a scope restores, in words. */
export const SCOPE_WORDS: Record<RewindScope, string> = {
  both: 'code and conversation',
  conversation: 'conversation only',
  code: 'code only',
}

/** The rows a rewind leaves in the transcript: a divider naming the target, then the files it restored. */
export function rewoundRows(
  event: Extract<EngineEvent, { type: 'rewound' }>,
  text: string | undefined,
): NewEntry[] {
  const before = text !== undefined ? ` to before “${oneLine(text, 40)}”` : ''
  const rows: NewEntry[] = [{ kind: 'divider', text: `Rewound${before} (${SCOPE_WORDS[event.scope]})` }]
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

/** A rewind: the prompts from its target on are gone; a divider and the files it restored remain. */
export function onRewound(
  state: ChatState,
  event: Extract<EngineEvent, { type: 'rewound' }>,
  fromSubagent: boolean,
): ChatState {
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
  // Restored code is not what the last turn's checks saw: its badge no longer holds.
  const { badge: _stale, ...rest } = state
  const kept = event.scope === 'conversation' ? state : rest
  return append(
    { ...kept, prompts, rewindConflicts: [...state.rewindConflicts, ...conflicts] },
    ...rewoundRows(event, target?.text),
  )
}
