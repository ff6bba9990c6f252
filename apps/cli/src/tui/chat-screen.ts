import type { Dispatch } from 'react'
import type { ChatController } from './chat-controller.js'
import type { InputUi } from './chat-input-ui.js'
import type { ChatAction } from './chat-reducer.js'
import type { ChatState } from './view-model.js'

/**
 * What the chat's key handlers and commands act on: the controller, the keyboard state, the latest
 * chat state and the ways to redraw. Built by `ChatApp` on each render, so each handler sees the
 * current props.
 */
export interface ChatScreen {
  controller: ChatController
  /** The keyboard state (one object for the chat's life, changed in place). */
  ui: InputUi
  /** The chat state as of the latest render (keys arriving between renders read it). */
  chat: () => ChatState
  dispatch: Dispatch<ChatAction>
  /** Draws the screen again after `ui` changed. */
  refresh: () => void
  /** Clears the printed transcript's key so it is printed again whole (a new session, a resize). */
  reprint: () => void
  now: () => number
  onExit: () => void
  /** Whether Shift-Tab may cycle into bypass. */
  allowBypass: boolean
}

/** Adds a notice row of the CLI's own to the transcript. */
export function notice(screen: ChatScreen, level: 'info' | 'warning' | 'error', text: string): void {
  screen.dispatch({ type: 'local', entry: { kind: 'notice', level, text } })
}

/** An error's message for a notice. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** Replaces the screen's session with a fresh one (`/clear`, `/resume`) and prints its transcript anew. */
export function showSession(screen: ChatScreen, fresh: ChatState): void {
  screen.reprint()
  screen.dispatch({ type: 'reset', state: fresh })
}
