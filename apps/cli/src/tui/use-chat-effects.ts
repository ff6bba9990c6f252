import { useStdin, useStdout } from 'ink'
import { useEffect, useRef } from 'react'
import { takeRewindConflicts } from './chat-rewind.js'
import type { ChatScreen } from './chat-screen.js'
import { openTrustOnRequest } from './chat-trust.js'
import type { EarlyInput } from './early-keys.js'

/** Erase the screen, erase the scrollback, cursor home. */
export const CLEAR_SCREEN_AND_SCROLLBACK = '\u001b[2J\u001b[3J\u001b[H'

/**
 * A width change makes the terminal reflow the frames already drawn (the prompt box, status line)
 * at the old width, which Ink cannot erase: they stay in scrollback. So the screen and scrollback
 * are cleared and the transcript printed again at the new width, as Claude Code does.
 */
export function useReprintOnResize(reprint: () => void): void {
  const { stdout } = useStdout()
  const reprintRef = useRef(reprint)
  reprintRef.current = reprint
  useEffect(() => {
    let width = stdout.columns
    const onResize = (): void => {
      if (stdout.columns === width) return
      width = stdout.columns
      stdout.write(CLEAR_SCREEN_AND_SCROLLBACK)
      reprintRef.current()
    }
    stdout.on('resize', onResize)
    return () => {
      stdout.off('resize', onResize)
    }
  }, [stdout])
}

/**
 * After each render: a code rewind's conflicting files go to their picker, and the chat's first
 * `trustRequired` opens the trust prompt.
 */
export function useChatPrompts(screen: ChatScreen): void {
  useEffect(() => {
    takeRewindConflicts(screen)
  })
  useEffect(() => {
    openTrustOnRequest(screen)
  })
}

/**
 * The keys typed in the early prompt box after its text (Enter, Tab, arrows, a paste…), replayed
 * once, in order, through the same input path (its listeners are registered by now).
 */
export function useReplayTyped(typed: Omit<EarlyInput, 'quit'> | undefined): void {
  const { internal_eventEmitter: inputEvents } = useStdin()
  const replayed = useRef(false)
  useEffect(() => {
    if (replayed.current || typed === undefined) return
    replayed.current = true
    for (const key of typed.keys) inputEvents.emit('input', key)
  }, [inputEvents, typed])
}
