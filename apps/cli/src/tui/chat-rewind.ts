import type { Key } from 'ink'
import type { Overlay } from './chat-input-ui.js'
import { type ChatScreen, notice } from './chat-screen.js'
import { type PickerRow, pickerKey } from './picker.js'
import { bufferOf } from './prompt-buffer.js'
import { firstScope, messageRows, SCOPE_CHOICES, scopeRows } from './rewind-picker.js'
import type { RewindConflictChoice } from './view-model.js'

/** `/rewind` or Esc Esc: the picker of the user's messages, newest selected. */
export function openRewind(screen: ChatScreen): void {
  const chat = screen.chat()
  if (chat.busy) {
    notice(screen, 'warning', 'A turn is running: press Esc to interrupt it, then rewind.')
    return
  }
  if (chat.prompts.length === 0) {
    notice(screen, 'info', 'Nothing to rewind yet: no message of yours is in this conversation.')
    return
  }
  screen.ui.overlay = { kind: 'rewind', step: 'message', index: chat.prompts.length - 1 }
  screen.refresh()
}

/** Keys in the `/rewind` picker: which message, then what to restore (Esc goes back a step). */
export function rewindKey(
  screen: ChatScreen,
  overlay: Extract<Overlay, { kind: 'rewind' }>,
  input: string,
  key: Key,
): void {
  const { ui, controller } = screen
  const chat = screen.chat()
  if (overlay.step === 'message') {
    const result = pickerKey(messageRows(chat.prompts), overlay.index, input, key)
    if (result.type === 'cancel') ui.overlay = undefined
    else if (result.type === 'move') ui.overlay = { ...overlay, index: result.index }
    else if (result.type === 'choose') {
      const target = chat.prompts[result.index]
      if (target) {
        const hasCheckpoint = chat.checkpoints.has(target.messageId)
        ui.overlay = { kind: 'rewind', step: 'scope', target, index: firstScope(hasCheckpoint) }
      }
    }
    return
  }
  const rows = scopeRows(chat.checkpoints.has(overlay.target.messageId))
  const result = pickerKey(rows, overlay.index, input, key)
  if (result.type === 'cancel') {
    const back = chat.prompts.findIndex((prompt) => prompt.messageId === overlay.target.messageId)
    ui.overlay = { kind: 'rewind', step: 'message', index: Math.max(0, back) }
  } else if (result.type === 'move') ui.overlay = { ...overlay, index: result.index }
  else if (result.type === 'choose') {
    const choice = SCOPE_CHOICES[result.index]
    ui.overlay = undefined
    if (!choice) return
    controller.rewind(overlay.target.messageId, choice.scope)
    // As in Claude Code, the message comes back to the prompt to edit and send again.
    if (choice.scope !== 'code' && ui.prompt.text === '') ui.prompt = bufferOf(overlay.target.text)
  }
}

/** The two answers to a file a rewind left hunks in. */
export function conflictRows(conflict: RewindConflictChoice): PickerRow[] {
  return [
    { key: 'keep', label: `Keep ${conflict.path} as it is now` },
    { key: 'revert', label: `Revert ${conflict.path} whole (your edits in it too)` },
  ]
}

/**
 * Takes the conflicts a code rewind left for the picker, file by file (queued behind one already
 * asking; asked once another picker closes).
 */
export function takeRewindConflicts(screen: ChatScreen): void {
  const conflicts = screen.chat().rewindConflicts
  if (conflicts.length === 0) return
  const open = screen.ui.overlay
  if (open !== undefined && open.kind !== 'conflict') return
  screen.ui.overlay =
    open === undefined
      ? { kind: 'conflict', queue: conflicts, index: 0 }
      : { ...open, queue: [...open.queue, ...conflicts] }
  screen.dispatch({ type: 'conflictsTaken' })
}

/** Keys in the picker that asks, per file a rewind left overlapping hunks in, to keep or revert it. */
export function conflictKey(
  screen: ChatScreen,
  overlay: Extract<Overlay, { kind: 'conflict' }>,
  input: string,
  key: Key,
): void {
  const { ui } = screen
  const [first, ...rest] = overlay.queue
  if (!first) {
    ui.overlay = undefined
    return
  }
  const result = pickerKey(conflictRows(first), overlay.index, input, key)
  if (result.type === 'move') ui.overlay = { ...overlay, index: result.index }
  else if (result.type === 'cancel' || result.type === 'choose') {
    // Esc keeps the file as the rewind left it.
    if (result.type === 'choose' && conflictRows(first)[result.index]?.key === 'revert')
      screen.controller.send({
        type: 'rewind',
        messageId: first.messageId,
        scope: 'code',
        includeEdited: true,
        only: [first.path],
      })
    else notice(screen, 'info', `Kept ${first.path} as it is; its overlapping hunks stay.`)
    ui.overlay = rest.length > 0 ? { kind: 'conflict', queue: rest, index: 0 } : undefined
  }
}
