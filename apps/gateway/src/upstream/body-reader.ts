/**
 * Reading an upstream `IncomingMessage`: pushed to a reader chunk by chunk (`pushChunks`, the
 * streamed path) or pulled as an async iterator (`bodyChunks`, for bounded JSON bodies and the
 * pass-through). Both read the `data` events themselves: Node's own `message.iterator()` builds an
 * async generator, `readable` listeners and an end-of-stream watcher per body and copies through
 * `read()`, which issue 37's load profile showed among the largest costs of a streamed response.
 */
import type { IncomingMessage } from 'node:http'
import type { ChunkVerdict } from './chunk-source.js'

/** Chunks buffered before the body is paused (the reader is slower than the upstream). */
const HIGH_WATER_CHUNKS = 16
const ignore = (): void => {}
const BROKEN = 'the upstream closed the connection before the body ended'

/** What a reader listens to on the message. */
interface Listeners {
  data: (chunk: Buffer) => void
  end: () => void
  error: (error: Error) => void
  close: () => void
}

function attach(message: IncomingMessage, listeners: Listeners): void {
  message.on('data', listeners.data)
  message.on('end', listeners.end)
  message.on('error', listeners.error)
  message.on('close', listeners.close)
}

/** Stops listening; an error after the reader left (a reset while draining) must not crash the process. */
function detach(message: IncomingMessage, listeners: Listeners): void {
  message.off('data', listeners.data)
  message.off('end', listeners.end)
  message.off('error', listeners.error)
  message.off('close', listeners.close)
  message.on('error', ignore)
}

/**
 * A reader that stopped early: a message the parser has finished is drained so its keep-alive socket
 * goes back to the pool (destroying it costs a new connection for the next round); an unfinished one
 * is dropped.
 */
function release(message: IncomingMessage): void {
  if (message.complete) message.resume()
  else message.destroy()
}

/**
 * Pushes the body's chunks to `onChunk` as they arrive (see `ChunkSource.read`): while a verdict is
 * pending, later chunks queue (the body pauses past `HIGH_WATER_CHUNKS`); a failure or the end is
 * reported once every chunk before it was handled.
 */
export function pushChunks(
  message: IncomingMessage,
  onChunk: (chunk: Uint8Array) => ChunkVerdict,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const queued: Buffer[] = []
    let waiting = false
    let ended = false
    let failure: Error | undefined
    let settled = false
    const settle = (error?: Error): void => {
      if (settled) return
      settled = true
      detach(message, listeners)
      if (error) reject(error)
      else resolve()
    }
    const stop = (): void => {
      queued.length = 0
      settle()
      release(message)
    }
    /** Handles one chunk; false when the reader now waits or is done. */
    const handle = (chunk: Buffer): boolean => {
      let verdict: ChunkVerdict
      try {
        verdict = onChunk(chunk)
      } catch (error) {
        settle(error as Error)
        release(message)
        return false
      }
      if (verdict === true) return true
      if (verdict === false) {
        stop()
        return false
      }
      waiting = true
      verdict.then(
        (go) => {
          waiting = false
          if (settled) return
          if (!go) return stop()
          drain()
        },
        (error: unknown) => {
          settle(error as Error)
          release(message)
        },
      )
      return false
    }
    /** Handles queued chunks until the reader waits; then the end or failure, if it came. */
    const drain = (): void => {
      while (queued.length > 0) if (!handle(queued.shift() as Buffer)) return
      if (failure) settle(failure)
      else if (ended) settle()
      else if (message.isPaused()) message.resume()
    }
    const listeners: Listeners = {
      data: (chunk) => {
        if (settled) return
        if (!waiting && queued.length === 0) {
          handle(chunk)
          return
        }
        queued.push(chunk)
        if (queued.length >= HIGH_WATER_CHUNKS) message.pause()
      },
      end: () => {
        ended = true
        if (!waiting && queued.length === 0) settle()
      },
      error: (error) => {
        failure ??= error
        if (!waiting && queued.length === 0) settle(failure)
      },
      // A connection lost before the body ended closes the message without 'end'.
      close: () => {
        if (!message.complete) failure ??= new Error(BROKEN)
        ended = true
        if (!waiting && queued.length === 0) settle(failure)
      },
    }
    attach(message, listeners)
  })
}

/** The body's chunks, pulled (see the file's comment); an abort or a broken connection throws from the iteration. */
export function bodyChunks(message: IncomingMessage): AsyncIterator<Uint8Array> {
  const chunks: Buffer[] = []
  let ended = false
  let failure: Error | undefined
  let wake: (() => void) | undefined
  const listeners: Listeners = {
    data: (chunk) => {
      chunks.push(chunk)
      if (chunks.length >= HIGH_WATER_CHUNKS) message.pause()
      wake?.()
    },
    end: () => {
      ended = true
      wake?.()
    },
    error: (error) => {
      failure ??= error
      wake?.()
    },
    close: () => {
      if (!message.complete) failure ??= new Error(BROKEN)
      ended = true
      wake?.()
    },
  }
  attach(message, listeners)
  const next = async (): Promise<IteratorResult<Uint8Array>> => {
    for (;;) {
      const chunk = chunks.shift()
      if (chunk !== undefined) {
        if (chunks.length === 0 && message.isPaused() && !ended) message.resume()
        return { done: false, value: chunk }
      }
      if (failure) {
        detach(message, listeners)
        throw failure
      }
      if (ended) {
        detach(message, listeners)
        return { done: true, value: undefined }
      }
      await new Promise<void>((resolve) => {
        wake = resolve
      })
      wake = undefined
    }
  }
  return {
    next,
    // Left early (the reader found what it needed before the body's last bytes were read).
    return: async () => {
      detach(message, listeners)
      chunks.length = 0
      release(message)
      return { done: true, value: undefined }
    },
  }
}
