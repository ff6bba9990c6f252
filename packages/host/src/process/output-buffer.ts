/**
 * Captures a process's output under a byte limit, keeping the head and the tail: the start of a
 * log says what ran, the end says how it ended, and the middle is what a model can best lose.
 */

/** Bytes kept by default: 64 KiB from the start and 192 KiB from the end. */
export const DEFAULT_HEAD_BYTES = 64 * 1024
export const DEFAULT_TAIL_BYTES = 192 * 1024

/** A rendered capture. */
export interface CapturedOutput {
  /** The kept text; a marker line stands where bytes were dropped. */
  text: string
  /** Every byte the process wrote. */
  totalBytes: number
  /** Bytes dropped from the middle (0 when everything fit). */
  omittedBytes: number
}

/** Keeps the first `headBytes` and the last `tailBytes` bytes of a stream. */
export class HeadTailBuffer {
  private readonly head: Buffer[] = []
  private headLength = 0
  private tail: Buffer[] = []
  private tailLength = 0
  private total = 0

  constructor(
    private readonly headBytes = DEFAULT_HEAD_BYTES,
    private readonly tailBytes = DEFAULT_TAIL_BYTES,
  ) {}

  /** Bytes appended so far. */
  get totalBytes(): number {
    return this.total
  }

  /** Appends a chunk. */
  append(chunk: Buffer): void {
    this.total += chunk.length
    let rest = chunk
    if (this.headLength < this.headBytes) {
      const take = Math.min(this.headBytes - this.headLength, rest.length)
      this.head.push(rest.subarray(0, take))
      this.headLength += take
      rest = rest.subarray(take)
    }
    if (rest.length === 0 || this.tailBytes === 0) return
    this.tail.push(rest)
    this.tailLength += rest.length
    while (this.tailLength > this.tailBytes) {
      const first = this.tail[0]!
      const excess = this.tailLength - this.tailBytes
      if (first.length <= excess) {
        this.tail.shift()
        this.tailLength -= first.length
      } else {
        this.tail[0] = first.subarray(excess)
        this.tailLength -= excess
      }
    }
  }

  /** The capture as text, cut at UTF-8 character boundaries. */
  render(): CapturedOutput {
    const head = Buffer.concat(this.head)
    const tail = Buffer.concat(this.tail)
    const omitted = this.total - head.length - tail.length
    if (omitted === 0) {
      return { text: Buffer.concat([head, tail]).toString('utf8'), totalBytes: this.total, omittedBytes: 0 }
    }
    const headText = head.subarray(0, utf8SafeEnd(head)).toString('utf8')
    const tailText = tail.subarray(utf8SafeStart(tail)).toString('utf8')
    const marker = `\n[... ${omitted} bytes of output omitted ...]\n`
    return { text: headText + marker + tailText, totalBytes: this.total, omittedBytes: omitted }
  }
}

/** The length of `bytes` without a trailing incomplete UTF-8 sequence. */
export function utf8SafeEnd(bytes: Uint8Array): number {
  // Walk back over at most three continuation bytes to the lead byte and check its length.
  for (let back = 1; back <= Math.min(4, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back]!
    if ((byte & 0xc0) === 0x80) continue
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1
    return needed > back ? bytes.length - back : bytes.length
  }
  return bytes.length
}

/** The offset of the first byte of `bytes` that starts a UTF-8 character. */
export function utf8SafeStart(bytes: Uint8Array): number {
  let start = 0
  while (start < Math.min(3, bytes.length) && (bytes[start]! & 0xc0) === 0x80) start += 1
  return start
}
