import { createReadStream } from 'node:fs'

/** A line that could not be used, with where it sits in the file. */
export interface ReplayProblem {
  /** `torn`: the last line ends without a newline and is not valid JSON (a crash mid-write). */
  kind: 'torn' | 'corrupt' | 'invalid' | 'unknownType' | 'missingHeader' | 'newerFormat' | 'inconsistent'
  /** Which file: `log.jsonl` or `agents/<id>.jsonl`. */
  file: string
  /** Byte offset of the line's first byte. */
  offset: number
  /** Length of the line in bytes, without its newline. */
  length: number
  message: string
}

/** One parsed line, or a problem in its place. */
export type JsonlEntry =
  | { type: 'value'; value: unknown; offset: number; length: number }
  | { type: 'problem'; problem: ReplayProblem }

const NEWLINE = 0x0a
const CHUNK_BYTES = 1 << 20

/**
 * Streams a JSONL file line by line with byte offsets; never throws on content. A line that is
 * not JSON is reported (`corrupt`, or `torn` when it was cut off mid-write) and skipped.
 * Blank lines are skipped silently (the appender leaves one after repairing a torn tail).
 */
export async function* readJsonl(path: string, file: string): AsyncGenerator<JsonlEntry> {
  const splitter = new LineSplitter(file)
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
    const entries: JsonlEntry[] = []
    splitter.push(chunk, (entry) => entries.push(entry))
    yield* entries
  }
  const last: JsonlEntry[] = []
  splitter.end((entry) => last.push(entry))
  yield* last
}

/**
 * Like {@link readJsonl}, but hands each entry to `visit` synchronously: no promise per line,
 * which is what makes replaying a 100,000-record log fast.
 */
export async function forEachJsonl(
  path: string,
  file: string,
  visit: (entry: JsonlEntry) => void,
): Promise<void> {
  const splitter = new LineSplitter(file)
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
    splitter.push(chunk, visit)
  }
  splitter.end(visit)
}

/** Splits chunks into parsed lines, tracking byte offsets. */
class LineSplitter {
  // Pieces of a line that spans chunks, joined once at its end (not per chunk: a 100 MB line
  // would otherwise be copied a hundred times).
  private carry: Buffer[] = []
  private carryOffset = 0
  private position = 0

  constructor(private readonly file: string) {}

  push(chunk: Buffer, visit: (entry: JsonlEntry) => void): void {
    let start = 0
    let newline = chunk.indexOf(NEWLINE, start)
    while (newline !== -1) {
      let line = chunk.subarray(start, newline)
      let lineOffset = this.position + start
      if (this.carry.length > 0) {
        line = Buffer.concat([...this.carry, line])
        lineOffset = this.carryOffset
        this.carry = []
      }
      if (line.length > 0) visit(parseLine(line, lineOffset, this.file, false))
      start = newline + 1
      newline = chunk.indexOf(NEWLINE, start)
    }
    if (start < chunk.length) {
      if (this.carry.length === 0) this.carryOffset = this.position + start
      this.carry.push(chunk.subarray(start))
    }
    this.position += chunk.length
  }

  end(visit: (entry: JsonlEntry) => void): void {
    if (this.carry.length > 0) visit(parseLine(Buffer.concat(this.carry), this.carryOffset, this.file, true))
    this.carry = []
  }
}

function parseLine(line: Buffer, offset: number, file: string, last: boolean): JsonlEntry {
  try {
    return { type: 'value', value: JSON.parse(line.toString('utf8')), offset, length: line.length }
  } catch (error) {
    const message = (error as Error).message
    // A record cut off mid-write fails as "unexpected end"; after the appender's repair it is no
    // longer the last line, but it is still a torn write rather than garbage.
    const cut = last || /Unexpected end|Unterminated/.test(message)
    const kind = cut ? 'torn' : 'corrupt'
    const why = cut
      ? 'the line was cut off mid-write (likely a crash); it was skipped'
      : `the line is not valid JSON (${message}); it was skipped`
    return { type: 'problem', problem: { kind, file, offset, length: line.length, message: why } }
  }
}
