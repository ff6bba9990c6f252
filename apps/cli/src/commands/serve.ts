import { Engine, EngineError, type OpenSessionOptions, type Session } from '@z-engine/engine'
import { parseCommand, parsePermissionMode } from '@z-engine/protocol'
import { parseCommandArgs } from '../args.js'
import { EXIT, UsageError, unknownWordError } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { projectDir } from '../cwd.js'
import { boundedLines, DEFAULT_MAX_LINE_BYTES, tooLongMessage } from '../exec/bounded-lines.js'

const HELP = `Usage: z-engine serve --stdio [options]

Speaks the Z Engine protocol (docs/protocol.md) as JSON lines: one command per stdin line, one
event envelope per stdout line. Approvals, questions and plans wait for your resolveApproval,
answerQuestion and resolvePlan commands.

The session opens when the first line arrives. If that line is an open request it chooses the
session, otherwise the flags do and the line is the first command:
  {"type":"open","cwd":"/repo","resume":"<id>","fork":"<id>","continue":true,
   "model":"anthropic/claude-sonnet-4-6","mode":"acceptEdits"}      (every field optional)

A line that is not a valid command gets {"error":{"line":N,"path":"…","message":"…"}} and the
server keeps going. At end of input the server waits for the running turn, then exits.

Options:
  --stdio                  required: serve over stdin/stdout
  --cwd DIR                the project folder (default: the current folder)
  --resume ID | --continue | --fork ID
  --model REF              the model (as for exec)
  --permission-mode MODE   default, acceptEdits, plan, bypass
  -h, --help               show this help
`

/** The optional first line that chooses the project and session. */
interface OpenRequest {
  cwd?: string
  resume?: string
  fork?: string
  continue?: boolean
  model?: string
  mode?: string
}

const OPEN_FIELDS = ['type', 'cwd', 'resume', 'fork', 'continue', 'model', 'mode']

/** Reads an open request; a string is what is wrong with it (never throws). */
function parseOpen(value: Record<string, unknown>): OpenRequest | string {
  for (const key of Object.keys(value))
    if (!OPEN_FIELDS.includes(key))
      return `unknown field "${key}" in the open request; expected ${OPEN_FIELDS.join(', ')}`
  const request: OpenRequest = {}
  for (const key of ['cwd', 'resume', 'fork', 'model', 'mode'] as const) {
    const field = value[key]
    if (field === undefined) continue
    if (typeof field !== 'string' || field === '') return `"${key}" must be a non-empty string`
    request[key] = field
  }
  if (value.continue !== undefined) {
    if (typeof value.continue !== 'boolean') return '"continue" must be true or false'
    request.continue = value.continue
  }
  return request
}

/** `z-engine serve --stdio`: protocol commands in, event envelopes out, as JSON lines. */
export async function main(io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(io.argv, {
    stdio: { type: 'boolean' },
    cwd: { type: 'string' },
    resume: { type: 'string' },
    continue: { type: 'boolean' },
    fork: { type: 'string' },
    model: { type: 'string' },
    'permission-mode': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  })
  if (values.help) {
    io.stdout.write(HELP)
    return EXIT.ok
  }
  if (!values.stdio) throw new UsageError("'serve' needs --stdio (the only transport so far).")
  if (positionals.length > 0) throw new UsageError(`Unexpected argument '${positionals[0]}'.`)
  const flags: OpenRequest = {
    ...(values.cwd !== undefined ? { cwd: values.cwd } : {}),
    ...(values.resume !== undefined ? { resume: values.resume } : {}),
    ...(values.fork !== undefined ? { fork: values.fork } : {}),
    ...(values.continue ? { continue: true } : {}),
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(values['permission-mode'] !== undefined ? { mode: values['permission-mode'] } : {}),
  }
  const write = (value: unknown) => io.stdout.write(`${JSON.stringify(value)}\n`)
  const engine = await Engine.create({ env: io.env, onEvent: write })
  let session: Session | undefined
  let lineNumber = 0
  let failed = false
  // A client's line is held in memory until it ends: cap it ([input] max_line_bytes).
  let maxLineBytes = DEFAULT_MAX_LINE_BYTES
  try {
    const root = await projectDir(io.cwd, flags.cwd, io.env.HOME)
    maxLineBytes = (await engine.settings(root)).settings.input.max_line_bytes
  } catch {
    // An unreadable project or settings file is reported when the session opens.
  }
  try {
    for await (const item of boundedLines(io.stdin as AsyncIterable<Buffer>, maxLineBytes)) {
      lineNumber = item.number
      if (item.type === 'tooLong') {
        write({ error: { line: lineNumber, path: '', message: tooLongMessage(item.bytes, maxLineBytes) } })
        continue
      }
      const line = item.text
      if (line.trim() === '') continue
      let value: unknown
      try {
        value = JSON.parse(line)
      } catch (error) {
        write({
          error: { line: lineNumber, path: '', message: `not valid JSON (${(error as Error).message})` },
        })
        continue
      }
      if (session === undefined) {
        const isOpen =
          typeof value === 'object' && value !== null && (value as Record<string, unknown>).type === 'open'
        const request = isOpen ? parseOpen(value as Record<string, unknown>) : {}
        if (typeof request === 'string') {
          write({ error: { line: lineNumber, path: '', message: request } })
          continue
        }
        const opened = await open(engine, io, { ...flags, ...request })
        if (typeof opened === 'string') {
          write({ error: { line: lineNumber, path: '', message: opened } })
          failed = true
          break
        }
        session = opened
        if (isOpen) continue
      }
      const parsed = parseCommand(value)
      if (!parsed.ok) {
        write({ error: { line: lineNumber, path: parsed.error.path, message: parsed.error.message } })
        continue
      }
      session.send(parsed.command)
    }
    // At end of input the running turn still finishes (a pending approval keeps it waiting: send
    // cancel first if nobody will answer it).
    if (session) await session.idle()
  } finally {
    await engine.shutdown()
  }
  return failed ? EXIT.failed : EXIT.ok
}

async function open(engine: Engine, io: CommandIo, request: OpenRequest): Promise<Session | string> {
  let root: string
  try {
    root = await projectDir(io.cwd, request.cwd, io.env.HOME)
  } catch (error) {
    return (error as Error).message
  }
  const chosen = [request.resume !== undefined, request.fork !== undefined, request.continue === true]
  if (chosen.filter(Boolean).length > 1) return 'use only one of resume, fork and continue'
  let mode: OpenSessionOptions['mode']
  if (request.mode !== undefined) {
    mode = parsePermissionMode(request.mode)
    if (mode === undefined)
      return unknownWordError('mode', request.mode, ['default', 'acceptEdits', 'plan', 'bypass']).message
  }
  let resume = request.resume
  const storedId = request.resume ?? request.fork
  if (storedId !== undefined && request.cwd === undefined) {
    // Without a folder, a resumed or forked session continues in its own project.
    const meta = await engine.store.readMeta(storedId)
    if (meta.ok) root = meta.value.projectRoot
  }
  if (request.continue) {
    resume = (await engine.listSessions(root))[0]?.sessionId
    if (resume === undefined) return `No stored session for ${root} to continue.`
  }
  try {
    return await engine.openSession({
      projectRoot: root,
      ...(resume !== undefined ? { resume } : {}),
      ...(request.fork !== undefined ? { fork: { sessionId: request.fork } } : {}),
      ...(mode !== undefined ? { mode } : {}),
      ...(request.model !== undefined ? { model: request.model } : {}),
    })
  } catch (error) {
    if (error instanceof EngineError) return error.message
    throw error
  }
}
