/**
 * The chat's first frame in plain ANSI (issue 17): the banner, the prompt box and the status line
 * drawn cell for cell as Ink draws them (`entry-view.tsx`'s banner, `composer.tsx`,
 * `status-line.tsx`), so the real composer replaces it without a visible jump. Pure: strings only.
 * Widths count code points (the early box shows typed text; wide characters may misalign it
 * until the real composer, which measures them, takes over).
 */

const SGR = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`
const blue = SGR(34, 39)
const dim = SGR(2, 22)
const bold = SGR(1, 22)
const inverse = SGR(7, 27)
const red = SGR(31, 39)

/** The status line's colour per permission mode, as `status-line.tsx` has it (gray, green, cyan, red). */
const MODE_LABEL: Record<string, { label: string; colour: (text: string) => string }> = {
  default: { label: 'ask before edits', colour: SGR(90, 39) },
  acceptEdits: { label: 'auto-accept edits', colour: SGR(32, 39) },
  plan: { label: 'plan mode', colour: SGR(36, 39) },
  bypass: { label: 'bypass permissions', colour: red },
}

/** What the early frame shows. */
export interface EarlyView {
  columns: number
  version: string
  projectRoot: string
  /** The permission mode and model when the command line names them (settings are not read yet). */
  mode?: string
  model?: string
  text: string
  queued: readonly string[]
  /** Ctrl-C armed quitting. */
  warning: boolean
  /** Quitting once the session is open. */
  quitting: boolean
}

const width = (text: string): number => Array.from(text).length

/** Keeps the last `max` columns of `text`, marked with `…` when cut. */
function tail(text: string, max: number): string {
  const characters = Array.from(text)
  return characters.length <= max ? text : `…${characters.slice(characters.length - max + 1).join('')}`
}

/** Keeps the first `max` columns of `text`, marked with `…` when cut. */
function head(text: string, max: number): string {
  const characters = Array.from(text)
  return characters.length <= max ? text : `${characters.slice(0, Math.max(0, max - 1)).join('')}…`
}

/**
 * The banner as the chat prints it above everything, with the session line's id left blank (the
 * session is not open yet): the same width, so nothing moves when the real one is printed. None
 * when it would not fit on one row per line.
 */
export function earlyBanner(view: EarlyView): string[] {
  // A session id is a UUID (36 characters); the line keeps its width until the real one comes.
  const session = `session ${'starting…'.padEnd(36)} · /help for keys and commands`
  const lines = [
    { plain: `z-engine ${view.version}`, styled: `${bold(blue('z-engine'))}${dim(` ${view.version}`)}` },
    { plain: view.projectRoot, styled: dim(view.projectRoot) },
    { plain: session, styled: dim(session) },
  ]
  const inner = Math.max(...lines.map((line) => width(line.plain)))
  if (inner + 4 > view.columns - 2) return []
  return [
    ` ${blue(`╭${'─'.repeat(inner + 2)}╮`)}`,
    ...lines.map(
      (line) => ` ${blue('│')} ${line.styled}${' '.repeat(inner - width(line.plain))} ${blue('│')}`,
    ),
    ` ${blue(`╰${'─'.repeat(inner + 2)}╯`)}`,
  ]
}

/** The prompt box, the queued prompts and the status line (what the chat redraws below the banner). */
export function earlyComposer(view: EarlyView): string[] {
  const columns = Math.max(20, view.columns)
  const room = columns - 6
  const placeholder = head('Ask anything, / for commands', room - 1)
  const typed = tail(view.text, room - 1)
  const shown =
    view.text === ''
      ? { styled: `${inverse(' ')}${dim(placeholder)}`, width: 1 + width(placeholder) }
      : { styled: `${typed}${inverse(' ')}`, width: width(typed) + 1 }
  const lines = [
    blue(`╭${'─'.repeat(columns - 2)}╮`),
    `${blue('│')} ${blue('› ')}${shown.styled}${' '.repeat(Math.max(0, room - shown.width))} ${blue('│')}`,
    blue(`╰${'─'.repeat(columns - 2)}╯`),
    ...view.queued.map((text) => ` ${dim(head(`⏎ queued: ${text.replace(/\s+/g, ' ')}`, columns - 2))}`),
  ]
  const mode = view.mode !== undefined ? MODE_LABEL[view.mode] : undefined
  const warning = view.warning ? 'Press Ctrl-C again to quit · ' : ''
  const known = mode !== undefined && view.model !== undefined
  const rest = view.quitting
    ? 'quitting once the session is open…'
    : known
      ? ` (shift+tab) · ${view.model} · $0.0000`
      : `${mode !== undefined ? ' (shift+tab) · ' : ''}${view.model !== undefined ? `${view.model} · ` : ''}starting…`
  const label = view.quitting ? '' : (mode?.label ?? '')
  const status = `${warning}${label}${rest}`
  // One row, like Ink's truncated status line, so the frame's height is what was drawn.
  if (width(status) > columns - 2) lines.push(` ${dim(head(status, columns - 2))}`)
  else
    lines.push(
      ` ${warning !== '' ? red(warning) : ''}${mode && label !== '' ? mode.colour(label) : ''}${dim(rest)}`,
    )
  return lines
}
