import { fstatSync } from 'node:fs'
import { Engine } from '@z-engine/engine'
import { UsageError } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { boundedLines, DEFAULT_MAX_LINE_BYTES, tooLongMessage } from './bounded-lines.js'
import { type ExecPrompt, parseStreamJsonLine, readAll } from './prompt-input.js'

/** The input formats of `exec` and `-p`. */
export const INPUT_FORMATS = ['text', 'stream-json'] as const

/** `[input] max_line_bytes` of the project's settings (the default when they cannot be read). */
export async function inputLineCap(io: CommandIo, projectRoot: string): Promise<number> {
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

/** The prompts of the run, in order (`usage` names the command in messages); the first is read (and checked) before any session opens. */
export async function readPrompts(
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
