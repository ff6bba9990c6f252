/**
 * A streamed upstream body read by push: each chunk goes to the reader as it arrives, in the same
 * turn of the event loop. Issue 37's load profile charged a streamed response with an async iterator
 * step (two promises) per chunk and an awaited function per SSE event; here a reader that has no
 * reason to wait (no backpressure) handles a chunk and all its events synchronously.
 */

/**
 * What a reader does with one chunk: `true` reads on, `false` stops reading (the rest of the body is
 * dropped), and a promise holds the next chunks (buffered, the body paused) until it settles to one
 * of those.
 */
export type ChunkVerdict = boolean | Promise<boolean>

/** A body that pushes its chunks. */
export interface ChunkSource {
  /**
   * Hands each chunk to `onChunk` in order, one at a time; resolves when the body ended or the reader
   * stopped, rejects when the body broke (an abort included). Read once.
   */
  read(onChunk: (chunk: Uint8Array) => ChunkVerdict): Promise<void>
}

/** A source over chunks the caller already has or iterates (tests, and bodies that are not a socket). */
export function chunkSourceOf(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): ChunkSource {
  return {
    async read(onChunk) {
      for await (const chunk of chunks) if (!(await onChunk(chunk))) return
    },
  }
}
