import { utf8SafeEnd, utf8SafeStart } from './output-buffer.js'

/** What one incremental read returns. */
export interface RingRead {
  text: string
  /** Absolute offset the next read continues from. */
  next: number
  /** Bytes the reader missed because the buffer overwrote them before it read them. */
  droppedBytes: number
}

/**
 * The last `capacity` bytes of a long-running process's output, addressed by absolute offsets so
 * readers can ask for "everything since offset N" and learn how much they missed.
 */
export class RingBuffer {
  private chunks: Buffer[] = []
  private length = 0
  private written = 0

  constructor(readonly capacity: number) {}

  /** Offset one past the last byte ever written. */
  get end(): number {
    return this.written
  }

  /** Offset of the oldest byte still kept. */
  get start(): number {
    return this.written - this.length
  }

  /** Appends a chunk, dropping the oldest bytes past capacity. */
  append(chunk: Buffer): void {
    this.written += chunk.length
    const kept = chunk.length > this.capacity ? chunk.subarray(chunk.length - this.capacity) : chunk
    this.chunks.push(kept)
    this.length += kept.length
    while (this.length > this.capacity) {
      const first = this.chunks[0]!
      const excess = this.length - this.capacity
      if (first.length <= excess) {
        this.chunks.shift()
        this.length -= first.length
      } else {
        this.chunks[0] = first.subarray(excess)
        this.length -= excess
      }
    }
  }

  /**
   * Text from `offset` to the end. Unless `final`, a trailing incomplete UTF-8 character is left
   * for the next read, so a character split across two writes is never mangled.
   */
  readFrom(offset: number, final = false): RingRead {
    let from = Math.max(offset, this.start)
    let bytes = Buffer.concat(this.chunks).subarray(from - this.start)
    if (from > offset) {
      // The reader fell behind: start at the next whole character.
      const skip = utf8SafeStart(bytes)
      bytes = bytes.subarray(skip)
      from += skip
    }
    const droppedBytes = from - offset
    const usable = final ? bytes.length : utf8SafeEnd(bytes)
    return { text: bytes.subarray(0, usable).toString('utf8'), next: from + usable, droppedBytes }
  }
}
