import { workspaceTrustPending } from '@z-engine/engine/project-root'
import { parseChatFlags } from '../chat-flags.js'
import { projectPlace } from '../cwd.js'
import { PROVIDER_VARIABLES } from '../first-run/first-run-help.js'
import { cliVersion } from '../version.js'
import { type EarlyView, earlyBanner, earlyComposer } from './early-frame.js'
import {
  EARLY_CTRL_C_WINDOW_MS,
  EARLY_KEYS_START,
  type EarlyInput,
  type EarlyKeysState,
  earlyRead,
} from './early-keys.js'

const ENABLE_BRACKETED_PASTE = '\u001b[?2004h'
const DISABLE_BRACKETED_PASTE = '\u001b[?2004l'
const HIDE_CURSOR = '\u001b[?25l'
const SHOW_CURSOR = '\u001b[?25h'
/** Ink's synchronized-output markers: the terminal shows what is between them at once. */
const BEGIN_SYNC = '\u001b[?2026h'
const END_SYNC = '\u001b[?2026l'

/** The streams and surroundings the early box needs (a command's `CommandIo`). */
export interface EarlyIo {
  stdin: NodeJS.ReadableStream
  stdout: NodeJS.WritableStream
  env: NodeJS.ProcessEnv
  cwd: string
}

/** The early prompt box while it is on screen. */
export interface EarlyComposer {
  /** Stops reading keys and returns what was typed (the terminal stays in raw mode for the chat). */
  stop(): EarlyInput
  /**
   * Leaves the frame for the chat's first frame to replace: the next write to stdout erases it in
   * the same write, so there is no blank moment in between.
   */
  yieldFrame(): void
  /** Erases the frame and gives the terminal back (unless yielded). Safe to call more than once. */
  dispose(): void
}

/** The permission modes `--permission-mode` names, as the status line keys them. */
const MODES: Record<string, string> = {
  default: 'default',
  acceptEdits: 'acceptEdits',
  plan: 'plan',
  bypass: 'bypass',
  bypassPermissions: 'bypass',
}

/** What the early frame knows from the command line, or undefined when it must not be drawn. */
export interface EarlyPlan {
  projectRoot: string
  mode?: string
  model?: string
}

/**
 * Whether the chat goes straight to the composer, judged from argv and a few file checks, and
 * what the frame shows. Undefined (no early frame) on anything else: no terminal, `--help`, the
 * `--resume` picker, a flag the chat will reject, no provider variable (a first-run screen may
 * come), or project settings in a folder not yet trusted (the trust prompt may come).
 */
export async function earlyPlan(io: EarlyIo, argv: readonly string[]): Promise<EarlyPlan | undefined> {
  const stdin = io.stdin as NodeJS.ReadStream
  const stdout = io.stdout as NodeJS.WriteStream
  if (stdin.isTTY !== true || stdout.isTTY !== true || io.env.TERM === 'dumb') return undefined
  let values: Record<string, string | boolean | undefined>
  try {
    const parsed = parseChatFlags(argv)
    if (parsed.positionals.length > 0) return undefined
    values = parsed.values
  } catch {
    return undefined
  }
  if (values.help === true || values.resume === '') return undefined
  if (values.resume !== undefined && values.continue === true) return undefined
  if (values.fork !== undefined && (values.resume !== undefined || values.continue === true)) return undefined
  if (values['fork-session'] === true && values.resume === undefined && values.continue !== true)
    return undefined
  const modeFlag = values['permission-mode']
  const mode = typeof modeFlag === 'string' ? MODES[modeFlag] : undefined
  if (modeFlag !== undefined && mode === undefined) return undefined
  const model = typeof values.model === 'string' ? values.model : undefined
  const scripted = model?.startsWith('scripted:') === true
  if (!scripted && !PROVIDER_VARIABLES.some((name) => (io.env[name] ?? '').trim() !== '')) return undefined
  const cwdFlag = typeof values.cwd === 'string' ? values.cwd : undefined
  const place = await projectPlace(io.cwd, cwdFlag, io.env.HOME).catch(() => undefined)
  if (place === undefined) return undefined
  if (await workspaceTrustPending(place.root, io.env)) return undefined
  return {
    projectRoot: place.root,
    ...(mode !== undefined ? { mode } : {}),
    // As the status line labels it: a script by its file name.
    ...(model !== undefined ? { model: scripted ? `scripted:${model.split('/').at(-1) ?? ''}` : model } : {}),
  }
}

/** Draws the early frame and starts echoing keys; undefined when the chat should not have one. */
export async function startEarlyComposer(
  io: EarlyIo,
  argv: readonly string[],
): Promise<EarlyComposer | undefined> {
  const plan = await earlyPlan(io, argv)
  if (plan === undefined) return undefined
  const stdin = io.stdin as NodeJS.ReadStream
  const stdout = io.stdout as NodeJS.WriteStream
  const { TextDecoder } = globalThis
  const decoder = new TextDecoder('utf-8')
  let state: EarlyKeysState = EARLY_KEYS_START
  let reading = true
  let yielded = false
  let disposed = false
  let warningTimer: NodeJS.Timeout | undefined
  const view = (): EarlyView => ({
    columns: stdout.columns ?? 80,
    version: cliVersion(),
    projectRoot: plan.projectRoot,
    ...(plan.mode !== undefined ? { mode: plan.mode } : {}),
    ...(plan.model !== undefined ? { model: plan.model } : {}),
    text: state.text,
    queued: state.queued,
    warning: state.input.ctrlCAt !== undefined && Date.now() - state.input.ctrlCAt < EARLY_CTRL_C_WINDOW_MS,
    quitting: state.input.quit,
  })
  // Raw first: a key pressed once the box is visible is never echoed or line-buffered by the terminal.
  stdin.setRawMode(true)
  const banner = earlyBanner(view())
  let drawn = earlyComposer(view())
  stdout.write(
    `${ENABLE_BRACKETED_PASTE}${HIDE_CURSOR}${BEGIN_SYNC}${[...banner, ...drawn].map((line) => `${line}\n`).join('')}${END_SYNC}`,
  )
  const redraw = () => {
    if (disposed || yielded) return
    const next = earlyComposer(view())
    stdout.write(
      `${BEGIN_SYNC}\r\u001b[${drawn.length}A\u001b[J${next.map((line) => `${line}\n`).join('')}${END_SYNC}`,
    )
    drawn = next
  }
  const onReadable = () => {
    let chunk: Buffer | string | null
    // biome-ignore lint/suspicious/noAssignInExpressions: the stream idiom
    while (reading && (chunk = stdin.read()) !== null) {
      const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
      const before = state
      state = earlyRead(state, text, Date.now())
      if (state.input.ctrlCAt !== before.input.ctrlCAt && state.input.ctrlCAt !== undefined) {
        // The warning goes away when its window closes, as in the chat.
        clearTimeout(warningTimer)
        warningTimer = setTimeout(redraw, EARLY_CTRL_C_WINDOW_MS + 10)
        warningTimer.unref()
      }
      if (state !== before) redraw()
    }
  }
  stdin.on('readable', onReadable)
  // Killed or hung up before the chat listens for that: give the terminal back, then die of it.
  const onSignal = (signal: NodeJS.Signals) => {
    process.off('SIGTERM', onSignal)
    process.off('SIGHUP', onSignal)
    early.dispose()
    // The chat's own handlers may be listening already; else the signal's default action.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
  }
  process.on('SIGTERM', onSignal)
  process.on('SIGHUP', onSignal)
  const stopReading = () => {
    if (!reading) return
    reading = false
    stdin.off('readable', onReadable)
    process.off('SIGTERM', onSignal)
    process.off('SIGHUP', onSignal)
    clearTimeout(warningTimer)
  }
  const erase = () => `\r\u001b[${banner.length + drawn.length}A\u001b[J`
  const early: EarlyComposer = {
    stop() {
      stopReading()
      return state.input
    },
    yieldFrame() {
      if (disposed || yielded) return
      yielded = true
      const write = stdout.write
      stdout.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
        stdout.write = write
        const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8')
        // Inside Ink's synchronized block when it opens one, so the terminal never shows the gap.
        const joined = text === BEGIN_SYNC ? `${BEGIN_SYNC}${erase()}` : `${erase()}${text}`
        return (write as (...args: unknown[]) => boolean).call(this, joined, ...rest)
      } as typeof stdout.write
    },
    dispose() {
      stopReading()
      if (disposed || yielded) return
      disposed = true
      stdout.write(`${erase()}${DISABLE_BRACKETED_PASTE}${SHOW_CURSOR}`)
      stdin.setRawMode(false)
    },
  }
  return early
}
