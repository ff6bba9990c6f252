/**
 * The keys typed while the chat is still loading (issue 17): split into the events Ink would have
 * read, and folded into what the early composer shows. Nothing here is interpreted for good: the
 * real composer gets the typed text as its starting prompt and replays every other key in order,
 * so Enter, Tab, arrows or a paste typed early do exactly what they do later. Pure, no I/O.
 */

const ESC = '\u001b'
const PASTE_START = `${ESC}[200~`
const PASTE_END = `${ESC}[201~`

/** The window in which a second Ctrl-C quits (the chat's own `CTRL_C_WINDOW_MS`). */
export const EARLY_CTRL_C_WINDOW_MS = 2000

/** What was typed before the real composer took over. */
export interface EarlyInput {
  /** Plain text typed first (printable keys and Backspace): the composer starts with it. */
  prefix: string
  /** Every later key, raw and in order, for the composer to handle as if typed now. */
  keys: string[]
  /** When Ctrl-C armed quitting on an empty prompt (the composer keeps the same window). */
  ctrlCAt?: number
  /** Ctrl-C twice or Ctrl-D on an empty prompt: quit as soon as the session is open. */
  quit: boolean
}

/** The early composer's state: what it shows and what it hands over. */
export interface EarlyKeysState {
  input: EarlyInput
  /** The prompt box as shown. */
  text: string
  /** Prompts sent with Enter (shown as queued; their Enter is among `keys`). */
  queued: string[]
  /** A key the early composer cannot show (an arrow, Tab, a paste…) came: it stops echoing. */
  frozen: boolean
  /** Text of the current paste, while one spans several reads. */
  pasting: boolean
}

/** Nothing typed yet. */
export const EARLY_KEYS_START: EarlyKeysState = {
  input: { prefix: '', keys: [], quit: false },
  text: '',
  queued: [],
  frozen: false,
  pasting: false,
}

/**
 * Splits what one read returned into keys as Ink reports them: an escape sequence, a control
 * character, or a run of text (ended by Enter, which stays with it). A bracketed paste comes out as
 * its start marker, its text and its end marker.
 */
export function splitKeys(data: string, pasting = false): { keys: string[]; pasting: boolean } {
  const keys: string[] = []
  let inPaste = pasting
  let index = 0
  while (index < data.length) {
    if (inPaste) {
      const end = data.indexOf(PASTE_END, index)
      if (end === -1) {
        keys.push(data.slice(index))
        return { keys, pasting: true }
      }
      if (end > index) keys.push(data.slice(index, end))
      keys.push(PASTE_END)
      index = end + PASTE_END.length
      inPaste = false
      continue
    }
    const character = data[index] as string
    if (character === ESC) {
      const length = escapeLength(data, index)
      const sequence = data.slice(index, index + length)
      keys.push(sequence)
      index += length
      if (sequence === PASTE_START) inPaste = true
      continue
    }
    if (isControl(character)) {
      keys.push(character)
      index += 1
      continue
    }
    let end = index
    while (end < data.length && data[end] !== ESC && data[end] !== '\r' && !isControl(data[end] as string))
      end += 1
    if (data[end] === '\r') end += 1
    keys.push(data.slice(index, end))
    index = end
  }
  return { keys, pasting: inPaste }
}

/** Control characters other than Enter (which ends a run of text). */
function isControl(character: string): boolean {
  const code = character.charCodeAt(0)
  return character !== '\r' && (code < 0x20 || code === 0x7f)
}

/** The length of the escape sequence at `start`: CSI, SS3, Alt+key, or a lone Esc. */
function escapeLength(data: string, start: number): number {
  const next = data[start + 1]
  if (next === undefined) return 1
  if (next === '[') {
    for (let index = start + 2; index < data.length; index++) {
      const code = data.charCodeAt(index)
      if (code >= 0x40 && code <= 0x7e && !(code === 0x5b && index === start + 2)) return index - start + 1
    }
    return data.length - start
  }
  if (next === 'O') return Math.min(3, data.length - start)
  return 2
}

/** Whether a key is plain text the prompt box can show (no control characters, no escapes). */
function isText(key: string): boolean {
  for (const character of key)
    if (character === ESC || isControl(character) || character === '\r') return false
  return key !== ''
}

/** Drops the last character (a whole code point). */
function dropLast(text: string): string {
  return Array.from(text).slice(0, -1).join('')
}

/**
 * Folds one key into the state at time `now`. Before anything but text and Backspace, the text
 * is the composer's starting prompt; from the first other key on, keys are kept for the composer
 * to replay, while the box keeps echoing text, Backspace and Enter (shown as queued) until a key
 * it cannot show arrives.
 */
export function earlyKey(state: EarlyKeysState, key: string, now: number): EarlyKeysState {
  const { input } = state
  if (input.quit) return state
  const replaying = input.keys.length > 0
  const emptyPrompt = state.text === '' && state.queued.length === 0 && !replaying
  if (key === '\u0003' && !replaying) {
    // As in the composer: clear a written prompt, else arm quitting; a second press quits.
    if (state.text !== '') return { ...state, text: '', input: { ...input, prefix: '' } }
    if (input.ctrlCAt !== undefined && now - input.ctrlCAt < EARLY_CTRL_C_WINDOW_MS)
      return { ...state, input: { ...input, quit: true } }
    return { ...state, input: { ...input, ctrlCAt: now } }
  }
  if (key === '\u0004' && emptyPrompt) return { ...state, input: { ...input, quit: true } }
  const { ctrlCAt: _armed, ...rest } = input
  if (!replaying && isText(key)) {
    const text = state.text + key
    return { ...state, text, input: { ...rest, prefix: text } }
  }
  if (!replaying && (key === '\u007f' || key === '\b')) {
    const text = dropLast(state.text)
    return { ...state, text, input: { ...rest, prefix: text } }
  }
  // From here on the composer replays the key; the box shows what it can.
  const kept = { ...rest, keys: [...input.keys, key] }
  if (state.frozen) return { ...state, input: kept }
  if (isText(key)) return { ...state, text: state.text + key, input: kept }
  if (key === '\u007f' || key === '\b') return { ...state, text: dropLast(state.text), input: kept }
  const body = key.slice(0, -1)
  if (key.endsWith('\r') && (body === '' || isText(body))) {
    const text = state.text + body
    // A `\` before Enter makes a line break in the composer: not something this box shows.
    if (text.endsWith('\\')) return { ...state, frozen: true, input: kept }
    return {
      ...state,
      text: '',
      queued: text.trim() === '' ? state.queued : [...state.queued, text],
      input: kept,
    }
  }
  return { ...state, frozen: true, input: kept }
}

/** Folds a whole read (already decoded) into the state. */
export function earlyRead(state: EarlyKeysState, data: string, now: number): EarlyKeysState {
  const split = splitKeys(data, state.pasting)
  let next: EarlyKeysState = { ...state, pasting: split.pasting }
  for (const key of split.keys) next = earlyKey(next, key, now)
  return next
}
