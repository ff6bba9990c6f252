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
 * not JSON is reported (`corrupt`, or `torn` when it is the unterminated last line) and skipped.
 * Blank lines are skipped silently (the appender leaves one after repairing a torn tail).
 */
export async function* readJsonl(path: string, file: string): AsyncGenerator<JsonlEntry> {
  const stream = createReadStream(path, { highWaterMark: CHUNK_BYTES })
  // Pieces of a line that spans chunks, joined once at its end (not per chunk: a 100 MB line
  // would otherwise be copied a hundred times).
  let carry: Buffer[] = []
  let carryOffset = 0
  let position = 0
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0
    let newline = chunk.indexOf(NEWLINE, start)
    while (newline !== -1) {
      let line = chunk.subarray(start, newline)
      let lineOffset = position + start
      if (carry.length > 0) {
        line = Buffer.concat([...carry, line])
        lineOffset = carryOffset
        carry = []
      }
      if (line.length > 0) yield parseLine(line, lineOffset, file, false)
      start = newline + 1
      newline = chunk.indexOf(NEWLINE, start)
    }
    if (start < chunk.length) {
      if (carry.length === 0) carryOffset = position + start
      carry.push(chunk.subarray(start))
    }
    position += chunk.length
  }
  if (carry.length > 0) yield parseLine(Buffer.concat(carry), carryOffset, file, true)
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
