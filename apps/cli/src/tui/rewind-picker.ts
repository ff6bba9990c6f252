import type { RewindScope } from '@z-engine/protocol'
import { oneLine } from './message-text.js'
import type { PickerRow } from './picker.js'
import type { RewindTarget } from './view-model.js'

/** The two steps of `/rewind`: which message, then what to restore. */
export type RewindStep =
  | { step: 'message'; index: number }
  | { step: 'scope'; target: RewindTarget; index: number }

/** The scopes in the order the picker offers them (Claude Code's order). */
export const SCOPE_CHOICES: ReadonlyArray<{ scope: RewindScope; label: string; needsCheckpoint: boolean }> = [
  { scope: 'both', label: 'Restore code and conversation', needsCheckpoint: true },
  { scope: 'conversation', label: 'Restore conversation only', needsCheckpoint: false },
  { scope: 'code', label: 'Restore code only (keep the conversation)', needsCheckpoint: true },
]

/** The messages to rewind to, oldest first, each cut to one line. */
export function messageRows(prompts: readonly RewindTarget[]): PickerRow[] {
  return prompts.map((prompt, index) => {
    const detail = [
      ...(prompt.changedFiles === true ? ['changed files'] : []),
      ...(index === prompts.length - 1 ? ['(latest)'] : []),
    ].join(' ')
    return { key: prompt.messageId, label: oneLine(prompt.text, 68), ...(detail !== '' ? { detail } : {}) }
  })
}

/** The scope choices for a message; the code ones need a checkpoint taken before it. */
export function scopeRows(hasCheckpoint: boolean): PickerRow[] {
  return SCOPE_CHOICES.map((choice) => ({
    key: choice.scope,
    label: choice.label,
    ...(choice.needsCheckpoint && !hasCheckpoint ? { disabled: 'no checkpoint before this message' } : {}),
  }))
}

/** The first scope that can be chosen (the conversation always can). */
export function firstScope(hasCheckpoint: boolean): number {
  return scopeRows(hasCheckpoint).findIndex((row) => row.disabled === undefined)
}
