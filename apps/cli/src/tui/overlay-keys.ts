import type { Key } from 'ink'
import type { Overlay } from './chat-input-ui.js'
import { resumeKey } from './chat-resume.js'
import { conflictKey, rewindKey } from './chat-rewind.js'
import type { ChatScreen } from './chat-screen.js'

/** Keys while a picker is open, to the picker's own handler. */
export function overlayKey(screen: ChatScreen, overlay: Overlay, input: string, key: Key): void {
  switch (overlay.kind) {
    case 'rewind':
      rewindKey(screen, overlay, input, key)
      return
    case 'conflict':
      conflictKey(screen, overlay, input, key)
      return
    case 'resume':
      resumeKey(screen, overlay, input, key)
      return
    default: {
      const unreachable: never = overlay
      throw new Error(`unknown picker ${JSON.stringify(unreachable)}`)
    }
  }
}
