import type { Key } from 'ink'
import type { Overlay } from './chat-input-ui.js'
import { type ChatScreen, errorText, notice, showSession } from './chat-screen.js'
import { pickerKey } from './picker.js'
import { sessionPickerRows } from './session-picker.js'

/** `/resume`: the picker of this project's other stored sessions, most recent first. */
export function openResume(screen: ChatScreen): void {
  const { ui } = screen
  ui.overlay = { kind: 'resume', rows: 'loading', index: 0 }
  screen.refresh()
  void screen.controller.sessionRows().then(
    (rows) => {
      const overlay = ui.overlay
      if (overlay?.kind === 'resume') ui.overlay = { ...overlay, rows }
      screen.refresh()
    },
    (error: unknown) => {
      ui.overlay = undefined
      notice(screen, 'error', `Could not list the sessions: ${errorText(error)}`)
    },
  )
}

/** Replaces the screen's session (`/resume`), or says why it could not. */
export function switchTo(screen: ChatScreen, sessionId: string): void {
  void screen.controller.resume(sessionId).then(
    (fresh) => showSession(screen, fresh),
    (error: unknown) => notice(screen, 'error', `Could not resume ${sessionId}: ${errorText(error)}`),
  )
}

/** Keys in the `/resume` picker (only Esc while the sessions are being read). */
export function resumeKey(
  screen: ChatScreen,
  overlay: Extract<Overlay, { kind: 'resume' }>,
  input: string,
  key: Key,
): void {
  const { ui } = screen
  const rows = overlay.rows === 'loading' ? [] : sessionPickerRows(overlay.rows)
  if (overlay.rows === 'loading' && !key.escape) return
  const result = pickerKey(rows, overlay.index, input, key)
  if (result.type === 'cancel') ui.overlay = undefined
  else if (result.type === 'move') ui.overlay = { ...overlay, index: result.index }
  else if (result.type === 'choose' && overlay.rows !== 'loading') {
    const row = overlay.rows[result.index]
    ui.overlay = undefined
    if (row) switchTo(screen, row.sessionId)
  }
}
