import { Engine, EngineError, type Session } from '@z-engine/engine'
import { checkpointWorkOf } from '@z-engine/engine/session-access'
import type { EventEnvelope, EventOf, PermissionMode, SettingsLayer } from '@z-engine/protocol'
import { EXIT, UsageError } from '../cli-error.js'
import { shellStart } from '../cwd.js'
import { firstRunHelp } from '../first-run/first-run-help.js'
import { lightStartup, startupOver } from '../v8-flags.js'
import { createDenialTracker } from './denials.js'
import { headlessAnswer } from './headless-answers.js'
import type { ExecPrompt } from './prompt-input.js'
import { turnExitCode } from './turn-exit-code.js'
import type { ExecWriter } from './writer.js'

/** Everything `exec` decided from its flags and input. */
export interface ExecPlan {
  projectRoot: string
  /** The folder exec was run from: the shell starts there when it is inside the session's project. */
  cwd?: string
  /** False when the folder is just the process cwd: a resumed or forked session then keeps its own. */
  explicitRoot: boolean
  /** The turns to run, in order: one, or one per stream-json input line (read as they arrive). */
  prompts: AsyncIterable<ExecPrompt>
  env: NodeJS.ProcessEnv
  mode?: PermissionMode
  model?: string
  /** Which stored session to continue, if any. */
  session:
    | { kind: 'new' }
    | { kind: 'resume'; id: string }
    | { kind: 'continue'; fork?: boolean }
    | { kind: 'fork'; id: string }
  maxTurns?: number
  /** Settings for this session above every file (`-p`'s rules, MCP servers, folders). */
  settings?: SettingsLayer
  /** Replaces the base system prompt (a string) or follows it (`append`). */
  systemPrompt?: string | { append: string }
  /** The id a new or forked session gets (`--session-id`). */
  sessionId?: string
  /** `--trust`: record the user's trust in the session's project folder before it opens. */
  trust?: boolean
}

/** The stored session a plan resumes or forks (a unique prefix names one too), and its project root. */
async function storedSession(
  engine: Engine,
  plan: ExecPlan,
): Promise<
  | { ok: true; resume: string | undefined; forkId: string | undefined; projectRoot: string }
  | { ok: false; error: { code: string; message: string } }
> {
  let resume: string | undefined
  let forkId = plan.session.kind === 'fork' ? plan.session.id : undefined
  // A unique prefix names a session too; its full id is needed to read its project folder.
  const given = plan.session.kind === 'resume' ? plan.session.id : forkId
  if (given !== undefined) {
    const resolved = await engine.resolveSessionId(given)
    if (!resolved.ok) return { ok: false, error: { code: 'sessionNotFound', message: resolved.message } }
    if (plan.session.kind === 'resume') resume = resolved.id
    else forkId = resolved.id
  }
  if (plan.session.kind === 'continue') {
    const latest = (await engine.listSessions(plan.projectRoot))[0]
    if (!latest) {
      const message = `No stored session for ${plan.projectRoot} to continue; run 'z-engine exec' without --continue to start one.`
      return { ok: false, error: { code: 'sessionNotFound', message } }
    }
    if (plan.session.fork) forkId = latest.sessionId
    else resume = latest.sessionId
  }
  let projectRoot = plan.projectRoot
  const storedId = resume ?? forkId
  if (storedId !== undefined && !plan.explicitRoot) {
    const meta = await engine.store.readMeta(storedId)
    if (meta.ok) projectRoot = meta.value.projectRoot
  }
  return { ok: true, resume, forkId, projectRoot }
}

/**
 * Runs headless turns: opens (or resumes, continues, forks) the session, submits each prompt once
 * the previous turn has finished, answers anything that waits on a person (fail closed), and
 * resolves to the exit code once the last turn has finished and the engine has shut down: the
 * first turn's non-zero code, else 0. SIGINT interrupts the turn (exit 130) and ends the run; a
 * second SIGINT stops waiting for it.
 */
export async function runExec(plan: ExecPlan, writer: ExecWriter): Promise<number> {
  lightStartup()
  const started = Date.now()
  let session: Session | undefined
  let sessionId = ''
  const denials = createDenialTracker()
  let waiting: ((event: EventOf<'turnFinished'> | undefined) => void) | undefined
  const finish = (event: EventOf<'turnFinished'> | undefined) => {
    const resolve = waiting
    waiting = undefined
    resolve?.(event)
  }
  const nextTurn = () =>
    new Promise<EventOf<'turnFinished'> | undefined>((resolve) => {
      waiting = resolve
    })
  const onEvent = (envelope: EventEnvelope) => {
    denials.observe(envelope)
    writer.event(envelope)
    const answer = headlessAnswer(envelope)
    // Deferred: the engine publishes an ask before its broker holds it, so an answer sent from
    // inside the event callback finds no pending approval ("already answered or cancelled").
    if (answer) setImmediate(() => session?.send(answer))
    // The first answer is in: start-up is over, and what follows is rounds (see v8-flags.ts).
    if (envelope.event.type === 'usageUpdated') startupOver()
    if (envelope.event.type === 'turnFinished' && envelope.agentId === undefined) finish(envelope.event)
  }
  const env = { ...plan.env }
  // The engine reads the rounds budget from settings; the flag is the environment layer's override.
  if (plan.maxTurns !== undefined) env.Z_ENGINE_MAX_TURNS = String(plan.maxTurns)
  const engine = await Engine.create({ env, onEvent })

  let interrupts = 0
  const onSigint = () => {
    interrupts++
    if (interrupts === 1 && session) session.send({ type: 'interrupt' })
    else {
      interrupts = Math.max(interrupts, 2)
      finish(undefined)
    }
  }
  process.on('SIGINT', onSigint)
  try {
    const stored = await storedSession(engine, plan)
    if (!stored.ok) {
      writer.end({ sessionId, exitCode: EXIT.failed, durationMs: Date.now() - started, error: stored.error })
      return EXIT.failed
    }
    const { resume, forkId, projectRoot } = stored
    if (plan.trust) {
      const trusted = await engine.trustWorkspace(projectRoot)
      if (!trusted.ok) {
        writer.end({
          sessionId,
          exitCode: EXIT.failed,
          durationMs: Date.now() - started,
          error: { code: 'trustFailed', message: trusted.error },
        })
        return EXIT.failed
      }
    }
    try {
      const start = plan.cwd === undefined ? undefined : shellStart(projectRoot, plan.cwd)
      session = await engine.openSession({
        projectRoot,
        ...(start !== undefined ? { cwd: start } : {}),
        ...(resume !== undefined ? { resume } : {}),
        ...(forkId !== undefined ? { fork: { sessionId: forkId } } : {}),
        ...(plan.mode !== undefined ? { mode: plan.mode } : {}),
        ...(plan.model !== undefined ? { model: plan.model } : {}),
        ...(plan.settings !== undefined ? { settings: plan.settings } : {}),
        ...(plan.systemPrompt !== undefined ? { systemPrompt: plan.systemPrompt } : {}),
        ...(plan.sessionId !== undefined ? { sessionId: plan.sessionId } : {}),
        // One prompt, no later rounds to pick up late tools: the MCP servers get their start timeout.
        waitForMcp: true,
      })
    } catch (error) {
      if (!(error instanceof EngineError)) throw error
      const exitCode = error.code === 'invalidOption' ? EXIT.usage : EXIT.failed
      const help = firstRunHelp(error.message, plan.env)
      writer.end({
        sessionId,
        exitCode,
        durationMs: Date.now() - started,
        error: { code: error.code, message: help ? `${error.message}\n\n${help}` : error.message },
      })
      return exitCode
    }
    sessionId = session.id
    await writer.open?.(session)
    let exitCode: number = EXIT.ok
    let last: EventOf<'turnFinished'> | undefined
    let inputError: { code: string; message: string } | undefined
    try {
      for await (const prompt of plan.prompts) {
        const turn = nextTurn()
        session.send({
          type: 'submit',
          text: prompt.text,
          ...(prompt.images.length > 0 ? { attachments: prompt.images } : {}),
        })
        const event = await turn
        if (!event) {
          exitCode = EXIT.interrupted
          break
        }
        last = event
        // A read-only turn's checkpoint may land after turnFinished: its line comes before `final`.
        await checkpointWorkOf(session).catch(() => undefined)
        const code = turnExitCode(event, denials.take().mutating)
        writer.turnEnd?.(event, code)
        if (exitCode === EXIT.ok) exitCode = code
        if (code === EXIT.interrupted || interrupts > 0) break
      }
    } catch (error) {
      // A bad stream-json line after the first: the turns before it ran; the run ends here.
      if (!(error instanceof UsageError)) throw error
      inputError = { code: 'badInput', message: error.message }
      if (exitCode === EXIT.ok) exitCode = EXIT.usage
    }
    await engine.shutdown()
    writer.end({
      sessionId,
      exitCode,
      durationMs: Date.now() - started,
      denials: denials.all(),
      ...(last ? { finished: last } : {}),
      ...(inputError ? { error: inputError } : {}),
    })
    return exitCode
  } finally {
    process.off('SIGINT', onSigint)
    await engine.shutdown().catch(() => {})
  }
}
