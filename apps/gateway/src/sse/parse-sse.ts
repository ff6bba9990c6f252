/**
 * An incremental SSE decoder for upstream streams: bytes in (any chunking, CRLF/CR/LF endings),
 * events out. It works on bytes so a UTF-8 character split across TCP chunks is never corrupted,
 * and it refuses a line longer than the configured ceiling instead of buffering without bound.
 */

/** One dispatched SSE event: the `event:` field (if any) and the joined `data:` lines. */
export type SseMessage = { kind: 'event'; event: string | null; data: string } | { kind: 'done' }

/** What feeding bytes produced: messages, or the line-size failure. */
export type SseFeed =
  | { ok: true; messages: SseMessage[] }
  | { ok: false; reason: 'line_too_long'; limit: number }

const LF = 0x0a
const CR = 0x0d

/** Decodes one SSE byte stream. */
export class SseDecoder {
  readonly #maxLineBytes: number
  #pending: Buffer = Buffer.alloc(0)
  #event: string | null = null
  #data: string[] = []
  #skipLf = false

  constructor(maxLineBytes: number) {
    this.#maxLineBytes = maxLineBytes
  }

  /** Feeds a chunk; returns every event it completed. */
  push(chunk: Uint8Array): SseFeed {
    // A view of the chunk, not a copy (only the unfinished tail is kept past this call).
    let bytes =
      this.#pending.length === 0
        ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        : Buffer.concat([this.#pending, chunk])
    const messages: SseMessage[] = []
    let start = 0
    if (this.#skipLf && bytes[0] === LF) start = 1
    this.#skipLf = false
    // Line ends are found by the native indexOf, not a byte loop: most upstreams end lines with LF
    // alone, and a chunk without CR needs one search per line.
    let nextCr = bytes.indexOf(CR, start)
    while (start < bytes.length) {
      const lf = bytes.indexOf(LF, start)
      if (nextCr !== -1 && nextCr < start) nextCr = bytes.indexOf(CR, start)
      const crFirst = nextCr !== -1 && (lf === -1 || nextCr < lf)
      const end = crFirst ? nextCr : lf
      if (end === -1) break
      if (end - start > this.#maxLineBytes)
        return { ok: false, reason: 'line_too_long', limit: this.#maxLineBytes }
      this.#line(bytes.toString('utf8', start, end), messages)
      if (crFirst) {
        if (end + 1 < bytes.length) start = bytes[end + 1] === LF ? end + 2 : end + 1
        else {
          // The LF of this CRLF may open the next chunk.
          this.#skipLf = true
          start = end + 1
        }
      } else start = end + 1
    }
    bytes = bytes.subarray(start)
    if (bytes.length > this.#maxLineBytes)
      return { ok: false, reason: 'line_too_long', limit: this.#maxLineBytes }
    this.#pending = Buffer.from(bytes)
    return { ok: true, messages }
  }

  /** Ends the stream: a final event without its blank line is still dispatched (as browsers do not, but servers forget it). */
  end(): SseMessage[] {
    const messages: SseMessage[] = []
    if (this.#pending.length > 0) this.#line(this.#pending.toString('utf8'), messages)
    this.#pending = Buffer.alloc(0)
    this.#line('', messages)
    return messages
  }

  #line(line: string, out: SseMessage[]): void {
    if (line === '') {
      if (this.#data.length > 0) {
        const data = this.#data.join('\n')
        out.push(data.trim() === '[DONE]' ? { kind: 'done' } : { kind: 'event', event: this.#event, data })
      }
      this.#event = null
      this.#data = []
      return
    }
    if (line.startsWith(':')) return
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'data') this.#data.push(value)
    else if (field === 'event') this.#event = value
    // `id:` and `retry:` mean nothing for a one-shot upstream response.
  }
}
