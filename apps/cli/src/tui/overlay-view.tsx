import type { ReactNode } from 'react'
import type { Overlay } from './chat-input-ui.js'
import { conflictRows } from './chat-rewind.js'
import { PickerView } from './picker.js'
import { messageRows, scopeRows } from './rewind-picker.js'
import { sessionPickerRows } from './session-picker.js'
import type { ChatState } from './view-model.js'

/** The open picker, sized to leave the status line and a few transcript rows on an 80×24 screen. */
export function OverlayView({
  overlay,
  state,
  rows,
}: {
  overlay: Overlay
  state: ChatState
  rows: number
}): ReactNode {
  const height = Math.max(3, Math.min(12, rows - 12))
  switch (overlay.kind) {
    case 'rewind':
      return overlay.step === 'message' ? (
        <PickerView
          title="Rewind: go back to before which message?"
          subtitle="Code, conversation or both can be restored to how they were before it."
          rows={messageRows(state.prompts)}
          index={overlay.index}
          height={height}
        />
      ) : (
        <PickerView
          title={`Rewind to before “${overlay.target.text.replace(/\s+/g, ' ').slice(0, 50)}”`}
          subtitle="Code: only the files the agent changed since then. Your own edits stay."
          rows={scopeRows(state.checkpoints.has(overlay.target.messageId))}
          index={overlay.index}
          height={height}
          hint="↑/↓ to move · Enter to rewind · Esc to go back"
        />
      )
    case 'conflict': {
      const first = overlay.queue[0]
      if (!first) return null
      return (
        <PickerView
          title={`Rewind left ${first.hunks} hunk${first.hunks === 1 ? '' : 's'} of ${first.path}: your later edits overlap the agent's change there`}
          subtitle="The agent's other hunks were reverted. Keep the file as it is, or revert it whole?"
          rows={conflictRows(first)}
          index={overlay.index}
          height={height}
          hint="↑/↓ to move · Enter to choose · Esc to keep"
        />
      )
    }
    case 'resume':
      return (
        <PickerView
          title="Resume a session of this project"
          rows={overlay.rows === 'loading' ? [] : sessionPickerRows(overlay.rows)}
          index={overlay.index}
          height={height}
          empty={
            overlay.rows === 'loading' ? 'Reading the sessions…' : 'No other session in this project yet.'
          }
        />
      )
    default: {
      const unreachable: never = overlay
      return unreachable
    }
  }
}
