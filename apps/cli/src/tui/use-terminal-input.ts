import { type Key, useInput, useStdin } from 'ink'
import { useCallback, useEffect, useRef } from 'react'
import { type PromptInput, SHIFT_ENTER_SEQUENCES } from './prompt-keys.js'

/** The bracketed-paste markers a terminal wraps a paste in once `CSI ? 2004 h` is sent. */
const PASTE_START = '\u001b[200~'
const PASTE_END = '\u001b[201~'

/** Turns bracketed paste on (the chat sends this when it starts) … */
export const ENABLE_BRACKETED_PASTE = '\u001b[?2004h'
/** … and off again when it ends. */
export const DISABLE_BRACKETED_PASTE = '\u001b[?2004l'

/** A key event with nothing pressed. */
export const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
}

// Control keys (Ctrl-letter, DEL) that reach Ink inside a run of text when keys arrive faster than
// the chat reads them; Tab, Enter and Ctrl-J stay text (see `promptKey`).
const CONTROL = /[\u0001-\u0008\u000b\u000c\u000e-\u001a\u007f]/

/**
 * Splits text that carries control keys into the keys a person pressed, in order: Ctrl-A then
 * `say` arrive as one read when the chat is busy, and must not be inserted as a `\u0001` character.
 */
export function splitTypeahead(data: string): PromptInput[] {
  const events: PromptInput[] = []
  let run = ''
  const flush = () => {
    if (run !== '') events.push({ type: 'key', input: run, key: NO_KEY, raw: run })
    run = ''
  }
  for (const character of data) {
    if (!CONTROL.test(character)) {
      run += character
      continue
    }
    flush()
    events.push(
      character === '\u007f'
        ? { type: 'key', input: '', key: { ...NO_KEY, delete: true }, raw: character }
        : {
            type: 'key',
            input: String.fromCharCode(character.charCodeAt(0) + 96),
            key: { ...NO_KEY, ctrl: true },
            raw: character,
          },
    )
  }
  flush()
  return events
}

/**
 * Ink's keys, plus what Ink does not report: a bracketed paste gathered whole (however many reads
 * it spans, line breaks included) and Shift+Enter. A raw listener on Ink's input events runs first
 * and marks the events it consumed, so the key handler skips them.
 */
export function useTerminalInput(handler: (event: PromptInput) => void): void {
  const { internal_eventEmitter: events } = useStdin()
  const handlerRef = useRef(handler)
  handlerRef.current = handler
  const state = useRef({ pasting: false, pasted: '', consumed: false, raw: '' })

  // Registered before `useInput`'s listener (effects run in order), so it sees each event first.
  useEffect(() => {
    const onRaw = (data: string) => {
      const current = state.current
      current.raw = data
      current.consumed = true
      if (data === PASTE_START) {
        current.pasting = true
        current.pasted = ''
        return
      }
      if (data === PASTE_END) {
        current.pasting = false
        const text = current.pasted
        current.pasted = ''
        handlerRef.current({ type: 'paste', text })
        return
      }
      if (current.pasting) {
        current.pasted += data
        return
      }
      if (SHIFT_ENTER_SEQUENCES.has(data)) {
        handlerRef.current({ type: 'newline' })
        return
      }
      if (data.length > 1 && !data.startsWith('\u001b') && CONTROL.test(data)) {
        for (const event of splitTypeahead(data)) handlerRef.current(event)
        return
      }
      current.consumed = false
    }
    events.on('input', onRaw)
    return () => {
      events.off('input', onRaw)
    }
  }, [events])

  const onKey = useCallback<Parameters<typeof useInput>[0]>((input, key) => {
    const current = state.current
    if (current.consumed) return
    handlerRef.current({ type: 'key', input, key, raw: current.raw })
  }, [])
  useInput(onKey)
}
