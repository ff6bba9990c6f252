/** One line of input, or the note that a line was longer than the cap (its bytes were dropped). */
export type BoundedLine =
  | { type: 'line'; number: number; text: string }
  | { type: 'tooLong'; number: number; bytes: number }

/** The default cap on one input line (`[input] max_line_bytes`). */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024

/**
 * Splits a byte stream into lines without ever holding more than `maxBytes` of one line: a longer
 * line is dropped as it arrives (memory stays bounded whatever a client sends) and reported as
 * `tooLong` with its size, and reading goes on with the next line. `\r\n` ends a line too.
 */
export async function* boundedLines(
  stream: AsyncIterable<Buffer | string>,
  maxBytes: number,
): AsyncGenerator<BoundedLine> {
  let parts: Buffer[] = []
  let held = 0
  let dropped = 0
  let number = 0
  const end = (): BoundedLine => {
    number++
    const bytes = held + dropped
    let item: BoundedLine
    if (dropped > 0) item = { type: 'tooLong', number, bytes }
    else {
      let text = Buffer.concat(parts, held).toString('utf8')
      if (text.endsWith('\r')) text = text.slice(0, -1)
      item = { type: 'line', number, text }
    }
    parts = []
    held = 0
    dropped = 0
    return item
  }
  const take = (chunk: Buffer): void => {
    if (dropped > 0 || held + chunk.length > maxBytes) {
      dropped += held + chunk.length
      parts = []
      held = 0
      return
    }
    parts.push(chunk)
    held += chunk.length
  }
  for await (const raw of stream) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw
    let start = 0
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, start)) {
      take(chunk.subarray(start, at))
      yield end()
      start = at + 1
    }
    if (start < chunk.length) take(chunk.subarray(start))
  }
  if (held > 0 || dropped > 0) yield end()
}

/** The error a client sees for a line over the cap. */
export function tooLongMessage(bytes: number, maxBytes: number): string {
  return `the line is ${bytes} bytes, over the input limit of ${maxBytes} bytes ([input] max_line_bytes in settings); it was dropped — send smaller lines (attach large files by path, not inline)`
}
