import type { CommandIo } from './command.js'

/** Writes a value as pretty JSON and a newline (what every `--json` prints). */
export function printJson(io: CommandIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
}

/** Writes lines of text. */
export function printLines(io: CommandIo, lines: readonly string[]): void {
  io.stdout.write(lines.length === 0 ? '' : `${lines.join('\n')}\n`)
}

/** The first line of a text, shortened to `width` characters. */
export function oneLine(text: string, width = 100): string {
  const first = text.replace(/\s+/g, ' ').trim()
  return first.length > width ? `${first.slice(0, width - 1)}…` : first
}
