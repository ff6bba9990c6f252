import { Engine, EngineError, type Session } from '@z-engine/engine'
import type { PermissionMode } from '@z-engine/protocol'
import { parseChatFlags } from '../chat-flags.js'
import { EXIT, UsageError } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { projectPlace, shellStart } from '../cwd.js'
import { firstRunHelp } from '../first-run/first-run-help.js'
import { parseModeFlag } from '../mode-flag.js'
import { listSessionRows, resumeWithoutIdMessage, type SessionRow } from '../sessions/session-listing.js'
import { ChatController, loadSlashCommands } from '../tui/chat-controller.js'
import { EventFeed } from '../tui/event-feed.js'
import { chatGate } from '../tui/test-chat-gate.js'
import { DISABLE_BRACKETED_PASTE, ENABLE_BRACKETED_PASTE } from '../tui/use-terminal-input.js'
import { cliVersion } from '../version.js'

const HELP = `Usage: z-engine [options]

The interactive chat in the terminal: streaming answers, tool cards, approval prompts, / commands.

Options:
  --model REF              anthropic/…, openai/…, openai-chat/…, openrouter/…, a catalog id,
                           or scripted:<file> (demos and tests)
  --permission-mode MODE   default, acceptEdits, plan, bypass (bypassPermissions)
  --resume [ID]            continue a stored session (its transcript is shown first); a unique
                           id prefix is enough; without an id, a picker (this project's
                           sessions first; outside a terminal, the list)
  --continue               continue this project's latest session
  --fork ID                continue a copy of a stored session under a new id (the original
                           stays as it was)
  --fork-session           with --resume or --continue: continue a copy of that session
  --cwd DIR                the project folder (default: the current folder)
  -h, --help               show this help

Keys: Enter sends (queued as steering while a turn runs); +Enter, Alt+Enter or Shift+Enter adds a
line; Esc or Ctrl+C interrupts a turn; Shift+Tab cycles the permission mode; Tab completes / commands
and @ files; ↑/↓ recall this project's prompts; !cmd runs a shell line; Ctrl+C twice or Ctrl+D quits.
Type /help inside for more.
`

/** The chat's flags, checked. */
export interface ChatPlan {
  projectRoot: string
  /** The folder the chat was started from, inside the project: the agent's shell starts there. */
  cwd?: string
  model?: string
  mode?: PermissionMode
  /**
   * `pick`: `--resume` without an id (a picker in a terminal, else the list and a usage error).
   * `fork`: continue a copy under a new id (`--fork ID`, or `--fork-session` with the others).
   */
  session:
    | { kind: 'new' }
    | { kind: 'resume'; id: string; fork?: boolean }
    | { kind: 'continue'; fork?: boolean }
    | { kind: 'pick'; fork?: boolean }
}

/** Parses `z-engine [options]` into a plan; usage mistakes throw `UsageError`. */
export async function parseChatArgs(io: CommandIo): Promise<ChatPlan | 'help'> {
  const { values, positionals } = parseChatFlags(io.argv)
  if (values.help) return 'help'
  if (positionals.length > 0)
    throw new UsageError(
      `The chat takes no prompt argument (got '${positionals[0]}'); type it inside, or use 'z-engine exec "…"'.`,
    )
  const mode: PermissionMode | undefined = parseModeFlag(values['permission-mode'])
  const chosen = [values.resume !== undefined, values.continue === true, values.fork !== undefined]
  if (chosen.filter(Boolean).length > 1)
    throw new UsageError('Use only one of --resume, --continue and --fork.')
  const fork = values['fork-session'] === true
  if (fork && values.resume === undefined && !values.continue)
    throw new UsageError('--fork-session goes with --resume or --continue: it forks the session they name.')
  if (values.fork === '') throw new UsageError('--fork needs the id of the session to copy.')
  const forked = fork ? { fork: true } : {}
  const place = await projectPlace(io.cwd, values.cwd, io.env.HOME)
  const start = shellStart(place.root, place.cwd)
  return {
    projectRoot: place.root,
    ...(start !== undefined ? { cwd: start } : {}),
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(mode !== undefined ? { mode } : {}),
    session:
      values.fork !== undefined
        ? { kind: 'resume', id: values.fork, fork: true }
        : values.resume === ''
          ? { kind: 'pick', ...forked }
          : values.resume !== undefined
            ? { kind: 'resume', id: values.resume, ...forked }
            : values.continue
              ? { kind: 'continue', ...forked }
              : { kind: 'new' },
  }
}

/** Opens the session the plan asks for; `--continue` picks this project's latest; a fork copies it first. */
export async function openChatSession(engine: Engine, plan: ChatPlan): Promise<Session> {
  let resume: string | undefined
  if (plan.session.kind === 'resume') resume = plan.session.id
  if (plan.session.kind === 'pick') throw new EngineError('invalidOption', '--resume needs a session id.')
  if (plan.session.kind === 'continue') {
    resume = (await engine.listSessions(plan.projectRoot))[0]?.sessionId
    if (resume === undefined)
      throw new EngineError(
        'sessionNotFound',
        `No stored session for ${plan.projectRoot} to continue; run 'z-engine' without --continue to start one.`,
      )
  }
  const fork = plan.session.kind !== 'new' && plan.session.fork === true
  return engine.openSession({
    projectRoot: plan.projectRoot,
    ...(plan.cwd !== undefined ? { cwd: plan.cwd } : {}),
    ...(resume !== undefined ? (fork ? { fork: { sessionId: resume } } : { resume }) : {}),
    ...(plan.model !== undefined ? { model: plan.model } : {}),
    ...(plan.mode !== undefined ? { mode: plan.mode } : {}),
  })
}

/**
 * Puts a terminal in raw mode before Ink draws, and keeps it there between the picker and the chat.
 * Ink turns raw mode on only after its first frame is on screen: a key pressed in that gap was echoed
 * and line-buffered by the terminal, so Down then Enter arrived as `^[[B` and a newline, not Enter.
 * Node gives the terminal its mode back when the process exits, whatever happens in between.
 */
function holdRawMode(stdin: NodeJS.ReadStream): void {
  if (stdin.isTTY === true && typeof stdin.setRawMode === 'function') stdin.setRawMode(true)
}

/** Shows the start-up session picker until a session is chosen (or undefined when cancelled). */
async function pickSession(io: CommandIo, rows: SessionRow[]): Promise<SessionRow | undefined> {
  const [{ render }, { sessionPickerElement }] = await Promise.all([
    import('ink'),
    import('../tui/session-picker-app.js'),
  ])
  let chosen: SessionRow | undefined
  holdRawMode(io.stdin as NodeJS.ReadStream)
  const instance = render(sessionPickerElement({ rows, onDone: (row) => (chosen = row) }), {
    stdin: io.stdin as NodeJS.ReadStream,
    stdout: io.stdout as NodeJS.WriteStream,
    stderr: io.stderr as NodeJS.WriteStream,
    exitOnCtrlC: false,
  })
  await instance.waitUntilExit()
  instance.clear()
  instance.unmount()
  // Ink left raw mode on unmount; what is typed while the chosen session opens is the chat's.
  holdRawMode(io.stdin as NodeJS.ReadStream)
  return chosen
}

/** The line a chat ends with: how to come back to it. */
const savedLine = (id: string): string => `\nSession ${id} saved. Resume it with: z-engine --resume ${id}\n`

/** `z-engine` (no subcommand): the interactive chat. */
export async function main(io: CommandIo): Promise<number> {
  const plan = await parseChatArgs(io)
  if (plan === 'help') {
    io.stdout.write(HELP)
    return EXIT.ok
  }
  const stdin = io.stdin as NodeJS.ReadStream
  if (plan.session.kind === 'pick') {
    // In a terminal, a picker (this project's sessions first); elsewhere the list and how to name one.
    const tty = stdin.isTTY === true && (io.stdout as NodeJS.WriteStream).isTTY === true
    const rows = await listSessionRows(await Engine.create({ env: io.env }), plan.projectRoot, { all: tty })
    if (!tty || rows.length === 0)
      throw new UsageError(resumeWithoutIdMessage(rows, 'z-engine --resume', plan.projectRoot))
    const chosen = await pickSession(io, rows)
    if (chosen === undefined) return EXIT.ok
    plan.session = { kind: 'resume', id: chosen.sessionId, ...(plan.session.fork ? { fork: true } : {}) }
    plan.projectRoot = chosen.projectRoot
  }
  if (stdin.isTTY !== true) {
    throw new UsageError(
      "The interactive chat needs a terminal. Without one, run a turn with 'z-engine exec \"…\"' (see 'z-engine exec --help').",
    )
  }
  // The terminal UI library compiles its layout engine on load (most of the start-up time), so it
  // loads while the engine opens the session instead of before.
  const ui = Promise.all([import('ink'), import('../tui/app.js')])
  ui.catch(() => {})
  const feed = new EventFeed()
  const engine = await Engine.create({ env: io.env, onEvent: feed.publish })
  // Completion and the context window need only settings and files: read them beside the open.
  const extras = Promise.all([loadSlashCommands(engine, plan.projectRoot), engine.settings(plan.projectRoot)])
  extras.catch(() => {})
  let session: Session
  try {
    session = await openChatSession(engine, plan)
  } catch (error) {
    if (!(error instanceof EngineError)) throw error
    io.early?.dispose()
    const help = firstRunHelp(error.message, io.env)
    io.stderr.write(`z-engine: ${error.message}\n${help ? `\n${help}\n` : ''}`)
    return EXIT.failed
  }
  const [commands, loaded] = await extras
  const contextWindow = loaded.settings.model.context_window
  const controller = new ChatController(
    engine,
    feed,
    session,
    {
      projectRoot: plan.projectRoot,
      ...(plan.model !== undefined ? { model: plan.model } : {}),
      ...(plan.mode !== undefined ? { mode: plan.mode } : {}),
      ...(contextWindow !== undefined ? { contextWindow } : {}),
      version: cliVersion(),
    },
    commands,
  )
  const [initial, history] = await Promise.all([controller.initialState(), controller.promptHistory()])
  let exit: () => void = () => {}
  const exited = new Promise<void>((resolve) => {
    exit = resolve
  })
  // A closed terminal or a kill ends the chat the same way /exit does: the journal is flushed.
  // `on`, not `once`: Ink's exit hook re-raises a signal when no other listener is left for it.
  let hungUp = false
  const onSignal = () => exit()
  const onHangup = () => {
    hungUp = true
    exit()
  }
  process.on('SIGHUP', onHangup)
  process.on('SIGTERM', onSignal)
  const [{ render }, { chatAppElement }] = await ui
  const stdout = io.stdout as NodeJS.WriteStream
  // Bracketed paste: the terminal marks a paste, so a multi-line one is kept whole instead of
  // sending its first line.
  stdout.write(ENABLE_BRACKETED_PASTE)
  // Tests hold the chat here to type into the early box while it is certainly not mounted.
  await chatGate(io.env)
  // What was typed in the early prompt box: the composer starts with it and replays the rest.
  const typed = io.early?.stop()
  if (typed?.quit) {
    // Ctrl-C twice (or Ctrl-D) before the chat was ready: quit as /exit would, without drawing it.
    io.early?.dispose()
    process.off('SIGHUP', onHangup)
    process.off('SIGTERM', onSignal)
    await controller.close()
    io.stdout.write(savedLine(controller.session.id))
    return EXIT.ok
  }
  io.early?.yieldFrame()
  holdRawMode(stdin)
  const instance = render(
    chatAppElement({
      controller,
      initial,
      onExit: () => exit(),
      history,
      allowBypass: plan.mode === 'bypass',
      ...(typed !== undefined ? { typed } : {}),
    }),
    {
      stdin,
      stdout,
      stderr: io.stderr as NodeJS.WriteStream,
      exitOnCtrlC: false,
    },
  )
  await Promise.race([exited, instance.waitUntilExit()])
  process.off('SIGHUP', onHangup)
  process.off('SIGTERM', onSignal)
  // Leave the transcript on screen, not the composer and status line of a chat that has ended.
  instance.clear()
  instance.unmount()
  stdout.write(DISABLE_BRACKETED_PASTE)
  const sessionId = controller.session.id
  await controller.close()
  // After a hang-up there is no terminal left to tell.
  if (!hungUp) io.stdout.write(savedLine(sessionId))
  return EXIT.ok
}
