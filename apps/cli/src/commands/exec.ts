import { fstatSync } from 'node:fs'
import { Engine } from '@z-engine/engine'
import { allowBareFlag, parseCommandArgs } from '../args.js'
import { EXIT, UsageError, unknownWordError } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { projectPlace } from '../cwd.js'
import { boundedLines, DEFAULT_MAX_LINE_BYTES, tooLongMessage } from '../exec/bounded-lines.js'
import { jsonWriter } from '../exec/json-writer.js'
import { type ExecPrompt, parseStreamJsonLine, readAll } from '../exec/prompt-input.js'
import { type ExecPlan, runExec } from '../exec/run-exec.js'
import { streamJsonWriter } from '../exec/stream-json-writer.js'
import { textWriter } from '../exec/text-writer.js'
import type { ExecWriter } from '../exec/writer.js'
import { parseModeFlag } from '../mode-flag.js'
import { listSessionRows, resumeWithoutIdMessage } from '../sessions/session-listing.js'

const HELP = `Usage: z-engine exec [options] [prompt]

Runs one turn without a terminal UI. The prompt comes from the arguments, or from stdin when
stdin is not a terminal or the prompt is '-'. With both, text piped in (a pipe or a redirected
file) follows the prompt: echo "$LOG" | z-engine exec "summarize this log".

Options:
  --output-format text|json|stream-json   text streams the answer to stdout (notices on stderr);
                                          json prints one object at the end; stream-json prints
                                          one JSON line per event (docs/stream-json.md)
  --input-format text|stream-json         stream-json: one turn per stdin line until EOF, each
                                          {"type":"user","message":{"role":"user","content":…}}
                                          (Claude Code's), {"type":"prompt","text":…} or
                                          {"type":"message","content":…}
  --permission-mode MODE                  default, acceptEdits, plan, bypass (bypassPermissions)
  --model REF                             anthropic/…, openai/…, openai-chat/…, openrouter/…,
                                          a catalog id, or scripted:<file> (demos and tests)
  --resume ID                             continue a stored session (a unique id prefix is
                                          enough; without an id, lists this project's)
  --continue                              continue this project's latest session
  --fork ID                               continue a copy of a stored session
  --cwd DIR                               the project folder (default: the current folder)
  --max-turns N                           stop after N model rounds (exit code 3)
  --trust                                 trust the project folder first (recorded, as
                                          'z-engine trust' does), so its project settings apply
  -h, --help                              show this help

Approvals cannot be asked headless: a call the mode or a rule does not allow is denied, and the
model is told why; json and stream-json results list them as permission_denials. A turn that
changed nothing because every change it tried was denied is an error (exit code 4).
Exit codes: 0 done, 1 failed, 2 usage error, 3 budget exhausted, 4 every change denied,
130 interrupted.
`

const OUTPUT_FORMATS = ['text', 'json', 'stream-json'] as const
const INPUT_FORMATS = ['text', 'stream-json'] as const

function oneOf<T extends string>(
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback
  if ((allowed as readonly string[]).includes(value)) return value as T
  throw unknownWordError(`${flag} value`, value, allowed)
}

/** `z-engine exec`: headless turns (one, or one per stream-json input line), written as text, one JSON object, or stream-json lines. */
export async function main(io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(allowBareFlag(io.argv, '--resume'), {
    'output-format': { type: 'string' },
    'input-format': { type: 'string' },
    'permission-mode': { type: 'string' },
    model: { type: 'string' },
    resume: { type: 'string' },
    continue: { type: 'boolean' },
    fork: { type: 'string' },
    cwd: { type: 'string' },
    'max-turns': { type: 'string' },
    trust: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  })
  if (values.help) {
    io.stdout.write(HELP)
    return EXIT.ok
  }
  const outputFormat = oneOf('--output-format', values['output-format'], OUTPUT_FORMATS, 'text')
  const inputFormat = oneOf('--input-format', values['input-format'], INPUT_FORMATS, 'text')
  const mode: ExecPlan['mode'] = parseModeFlag(values['permission-mode'])
  const chosen = [values.resume !== undefined, values.continue === true, values.fork !== undefined]
  if (chosen.filter(Boolean).length > 1)
    throw new UsageError('Use only one of --resume, --continue and --fork.')
  let maxTurns: number | undefined
  if (values['max-turns'] !== undefined) {
    maxTurns = Number(values['max-turns'])
    if (!Number.isInteger(maxTurns) || maxTurns < 1)
      throw new UsageError(`--max-turns takes a whole number of rounds ≥ 1 (got '${values['max-turns']}').`)
  }
  const { root: projectRoot, cwd } = await projectPlace(io.cwd, values.cwd, io.env.HOME)
  if (values.resume === '') {
    // Headless: no picker. Say which sessions there are and how to name one.
    const rows = await listSessionRows(await Engine.create({ env: io.env }), projectRoot)
    throw new UsageError(resumeWithoutIdMessage(rows, 'z-engine exec --resume', projectRoot))
  }
  const maxLineBytes = inputFormat === 'stream-json' ? await inputLineCap(io, projectRoot) : 0
  const prompts = await readPrompts(io, positionals, inputFormat, maxLineBytes)

  const writer = writerFor(outputFormat, io)
  return runExec(
    {
      projectRoot,
      cwd,
      explicitRoot: values.cwd !== undefined,
      prompts,
      env: io.env,
      ...(mode !== undefined ? { mode } : {}),
      ...(values.model !== undefined ? { model: values.model } : {}),
      ...(maxTurns !== undefined ? { maxTurns } : {}),
      ...(values.trust ? { trust: true } : {}),
      session:
        values.resume !== undefined
          ? { kind: 'resume', id: values.resume }
          : values.fork !== undefined
            ? { kind: 'fork', id: values.fork }
            : values.continue
              ? { kind: 'continue' }
              : { kind: 'new' },
    },
    writer,
  )
}

function writerFor(format: (typeof OUTPUT_FORMATS)[number], io: CommandIo): ExecWriter {
  switch (format) {
    case 'text':
      return textWriter(io)
    case 'json':
      return jsonWriter(io)
    case 'stream-json':
      return streamJsonWriter(io)
    default: {
      const unreachable: never = format
      return unreachable
    }
  }
}

/** `[input] max_line_bytes` of the project's settings (the default when they cannot be read). */
async function inputLineCap(io: CommandIo, projectRoot: string): Promise<number> {
  try {
    const engine = await Engine.create({ env: io.env })
    return (await engine.settings(projectRoot)).settings.input.max_line_bytes
  } catch {
    return DEFAULT_MAX_LINE_BYTES
  }
}

/**
 * The turns of `--input-format stream-json`: one per line, read as the lines arrive (a caller may
 * wait for a turn's `final` before writing the next line). A line over the cap is refused without
 * ever being held whole; a bad line is a usage error naming it.
 */
async function* streamJsonPrompts(io: CommandIo, maxLineBytes: number): AsyncGenerator<ExecPrompt> {
  for await (const item of boundedLines(io.stdin as AsyncIterable<Buffer>, maxLineBytes)) {
    if (item.type === 'tooLong')
      throw new UsageError(`stdin line ${item.number}: ${tooLongMessage(item.bytes, maxLineBytes)}.`)
    const parsed = parseStreamJsonLine(item.text, item.number)
    if (!parsed.ok) throw new UsageError(parsed.error)
    if (parsed.prompt) yield parsed.prompt
  }
}

/**
 * Whether stdin carries input a user piped or redirected (a pipe or a file). A socket or character
 * device inherited from a parent process (a spawned child's open stdin, /dev/tty) may never end, so
 * it is not read next to a prompt argument. Streams without a descriptor (in-process callers) count.
 */
function stdinIsPiped(stdin: NodeJS.ReadableStream): boolean {
  const fd = (stdin as { fd?: unknown }).fd
  if (typeof fd !== 'number') return true
  try {
    const info = fstatSync(fd)
    return info.isFIFO() || info.isFile()
  } catch {
    return false
  }
}

/** The prompts of the run, in order; the first is read (and checked) before any session opens. */
async function readPrompts(
  io: CommandIo,
  positionals: readonly string[],
  format: (typeof INPUT_FORMATS)[number],
  maxLineBytes: number,
): Promise<AsyncIterable<ExecPrompt>> {
  if (format === 'text') {
    const prompt = await readTextPrompt(io, positionals)
    return (async function* () {
      yield prompt
    })()
  }
  const fromArgs = positionals.length > 0 && !(positionals.length === 1 && positionals[0] === '-')
  if (fromArgs)
    throw new UsageError(
      'With --input-format stream-json the prompt comes from stdin; drop the prompt argument.',
    )
  if ((io.stdin as { isTTY?: boolean }).isTTY === true)
    throw new UsageError('--input-format stream-json reads stdin; pipe the JSON lines in.')
  const lines = streamJsonPrompts(io, maxLineBytes)
  const first = await lines.next()
  if (first.done)
    throw new UsageError(
      'The stream-json input holds no prompt; send a line like {"type":"user","message":{"role":"user","content":"…"}}.',
    )
  return (async function* () {
    yield first.value
    yield* lines
  })()
}

async function readTextPrompt(io: CommandIo, positionals: readonly string[]): Promise<ExecPrompt> {
  const fromArgs = positionals.length > 0 && !(positionals.length === 1 && positionals[0] === '-')
  const stdinIsTerminal = (io.stdin as { isTTY?: boolean }).isTTY === true
  if (fromArgs) {
    const text = positionals.join(' ')
    // `echo "$LOG" | z-engine exec "summarize this"`: piped text follows the prompt, as in Claude Code.
    const piped =
      stdinIsTerminal || !stdinIsPiped(io.stdin) ? '' : (await readAll(io.stdin)).replace(/\n$/, '')
    return { text: piped.trim() === '' ? text : `${text}\n\n${piped}`, images: [] }
  }
  // An explicit '-' reads stdin even from a terminal (until Ctrl-D).
  if (stdinIsTerminal && positionals[0] !== '-')
    throw new UsageError('Give a prompt: z-engine exec "fix the failing test" (or pipe it on stdin).')
  const text = await readAll(io.stdin)
  if (text.trim() === '')
    throw new UsageError('The prompt on stdin is empty; pass one as an argument or pipe text in.')
  return { text: text.replace(/\n$/, ''), images: [] }
}
